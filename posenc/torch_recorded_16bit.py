"""The PyTorch tutorial's encoding computed in 16 bits, recorded once.

PyTorch is not a dependency of the book. ``tests/record_16bit_tables.py``
ran the tutorial's expressions in torch.bfloat16 and torch.float16 and wrote
``tests/data/tutorial_16bit_tables.json``; this module holds the same
record, so that the precision chapter reads it wherever posenc is (the
notebooks' zip ships posenc, not the tests). ``tests/test_precision.py``
checks that the two are equal. Per format: the 16-bit patterns (hex) of
the frequencies torch computed, the first positions whose row errs by more
than 0.3 and by more than 1.99, and the SHA-256 of the float32 table.
"""

RECORDING = {
    "base": 10000.0,
    "bfloat16": {
        "first_above_0.3": 79,
        "first_above_1.99": 518,
        "frequencies": "3f80 3f77 3f6e 3f66 3f5e 3f56 3f4f 3f47 3f40 "
        "3f39 3f33 3f2d 3f27 3f21 3f1b 3f15 3f10 3f0b "
        "3f06 3f01 3efa 3ef1 3ee9 3ee1 3ed9 3ed0 3ec9 "
        "3ec2 3ebb 3eb5 3eae 3ea9 3ea2 3e9c 3e97 3e92 "
        "3e8d 3e88 3e82 3e7d 3e73 3e6c 3e63 3e5a 3e53 "
        "3e4b 3e45 3e3d 3e38 3e31 3e2a 3e25 3e1e 3e19 "
        "3e14 3e0e 3e08 3e04 3e00 3df5 3ded 3de6 3ddf "
        "3dd5 3dce 3dc8 3dbe 3db9 3db3 3dad 3da6 3da0 "
        "3d9b 3d94 3d90 3d8b 3d85 3d81 3d7a 3d72 3d67 "
        "3d60 3d59 3d4f 3d49 3d43 3d3a 3d34 3d2e 3d29 "
        "3d21 3d1c 3d18 3d11 3d0c 3d08 3d04 3cfb 3cf4 "
        "3cec 3ce1 3cda 3cd4 3cca 3cc4 3cbe 3cb8 3caf "
        "3caa 3ca5 3c9d 3c98 3c91 3c8d 3c89 3c84 3c80 "
        "3c79 3c6a 3c63 3c5c 3c55 3c4e 3c48 3c42 3c36 "
        "3c30 3c2b 3c26 3c21 3c1c 3c17 3c0e 3c09 3c05 "
        "3c01 3bfa 3bf2 3beb 3bdd 3bd6 3bcf 3bc9 3bc3 "
        "3bbd 3bb1 3bac 3ba7 3ba2 3b9d 3b98 3b93 3b8a "
        "3b86 3b82 3b7c 3b74 3b6c 3b65 3b57 3b51 3b4a "
        "3b44 3b3e 3b38 3b32 3b28 3b22 3b1d 3b19 3b14 "
        "3b0f 3b07 3b03 3afd 3af5 3aee 3ae6 3adf 3ad2 "
        "3acb 3ac5 3abf 3ab9 3ab3 3aae 3aa3 3a9e 3a99 "
        "3a95 3a90 3a8c 3a87 3a7e 3a77 3a6f 3a68 3a61 "
        "3a5a 3a4c 3a46 3a40 3a3a 3a34 3a2f 3a2a 3a1f "
        "3a1a 3a16 3a11 3a0d 3a08 3a04 39f8 39f0 39e9 "
        "39e2 39db 39d4 39c7 39c1 39bb 39b5 39b0 39a5 "
        "39a5 399b 399b 3992 3992 3989 3981 3981 3972 "
        "3972 3963 3955 3955 3948 3948 393c 393c 3931 "
        "3926 3926 391c 391c 3913 3913 390a 3901 3901 "
        "38f3 38f3 38e4 38e4",
        "positions": 1000,
        "table_float32_sha256": (
            "c200c2e51646c8000f70a66e89f397a786637f343de95f6af871e0baa6f46cc8"
        ),
    },
    "command": "python tests/record_16bit_tables.py > "
    "tests/data/tutorial_16bit_tables.json",
    "cpu_capability": "AVX512",
    "d": 512,
    "float16": {
        "first_above_0.3": 547,
        "first_above_1.99": 4134,
        "frequencies": "3c00 3bb8 3b72 3b2f 3aed 3aaf 3a72 3a38 3a00 "
        "39ca 3995 3963 3932 3903 38d5 38aa 3880 3857 "
        "3830 380a 37ca 3784 3740 36fe 36c0 3682 3647 "
        "360e 35d7 35a3 3570 353f 350f 34e1 34b5 348a "
        "3462 343a 3414 33dd 3396 3351 3310 32d0 3292 "
        "3257 321d 31e5 31b1 317e 314c 311c 30ed 30c0 "
        "3095 306d 3043 301e 2ff3 2fa9 2f65 2f20 2ee1 "
        "2ea1 2e66 2e2e 2df4 2dbf 2d8a 2d59 2d27 2cf9 "
        "2ccd 2ca1 2c78 2c4e 2c28 2c03 2bbb 2b77 2b31 "
        "2af2 2ab1 2a76 2a3d 2a03 29cd 2997 2966 2934 "
        "2906 28d9 28ac 2883 2859 2832 280d 27ce 2789 "
        "2743 2703 26c2 2686 264c 2611 25dc 25a5 2573 "
        "2540 2512 24e5 24b7 248b 2463 243c 2417 23e6 "
        "2398 2355 2314 22d6 2292 2258 2220 21ea 21b6 "
        "217e 214d 211e 20f1 20c5 2097 206e 2047 2021 "
        "1ff9 1fab 1f67 1f26 1ee6 1ea3 1e68 1e2f 1df9 "
        "1dc4 1d8b 1d5a 1d2b 1cfd 1cd1 1ca2 1c79 1c51 "
        "1c2b 1c06 1bbe 1b79 1b37 1af7 1ab3 1a78 1a3f "
        "1a07 19d2 1999 1967 1938 1909 18dd 18ad 1884 "
        "185c 1835 1810 17d1 178c 1749 1708 16c3 1688 "
        "164e 1616 15e0 15a7 1575 1544 1516 14e9 14b9 "
        "148f 1467 1440 141a 13e4 139e 135b 131a 12d4 "
        "1298 125d 1225 11ef 11b5 1182 1151 1122 10f5 "
        "10c4 109a 1071 104a 1020 0ff7 0fb1 0f6d 0f2b "
        "0ee5 0ea8 0e6d 0e34 0dfd 0dc3 0d90 0d5e 0d2a "
        "0d01 0cd0 0caa 0c7c 0c50 0c2e 0c05 0bcb 0b7f "
        "0b36 0afd 0ab8 0a83 0a43 0a06 09d7 099d 0966 "
        "093c 0908 08e1 08b1 0883 085f 0834 0813 07d7 "
        "078a 074f 0707 06d0",
        "positions": 10000,
        "table_float32_sha256": (
            "86d58f4741aa07bdb0e8273818606525da0302638dc688cb8cc8b0d5cc074ea2"
        ),
    },
    "numpy": "2.4.6",
    "platform": "Linux x86_64",
    "torch": "2.13.0+cpu",
}
