"""Frequencies as PyTorch computed them, recorded once (a generated file).

PyTorch is not a dependency of the book. What the expressions in
:data:`EXPRESSIONS` give in float32, for base 10^4 and the widths in
:data:`FREQUENCIES`, was recorded with

    python tests/record_torch_frequencies.py > posenc/torch_recorded.py

with torch 2.13.0+cpu and numpy 2.4.6 on Linux x86_64
(CPU capability AVX512). Each entry holds the float32 bit
patterns, in hex, of the frequencies theta_0, theta_1, ... Other
platforms may round some of them differently. Read them with
:func:`posenc.torch_frequencies`.

:data:`TABLE_CHECK` holds, for the PyTorch tutorial's whole table
(torch.sin and torch.cos of its float32 angles) at the 20,000 positions
of the precision chapter, the share of entries above the chapter's
float32 bound and the largest ratio of error to bound.
"""

TORCH_VERSION = "2.13.0+cpu"

EXPRESSIONS = {
    "PyTorch tutorial": "torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))",
    "GPT-J": "1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.int64) / d))",
}

FREQUENCIES = {
    ("PyTorch tutorial", 64): (
        "3f800000 3f3ff911 3f0ff59a 3ed7e89b 3ea1e89b 3e72d422 3e361887 3e088d77 "
        "3dcccccc 3d99940d 3d6655c1 3d2cba15 3d0186e2 3cc2434e 3c91ad39 3c5a7bf1 "
        "3c23d70a 3bf5b9ad 3bb8449a 3b8a2e75 3b4f3e33 3b1b690d 3ae91528 3aaec98e "
        "3a83126e 3a44948a 3a136a14 39dd1721 39a5cb61 3978a80d 393a7753 390bd46d "
    ),
    ("PyTorch tutorial", 512): (
        "3f800000 3f76f410 3f6e39f8 3f65ced3 3f5dafd6 3f55da52 3f4e4bac 3f470165 "
        "3f3ff911 3f39305c 3f32a506 3f2c54e5 3f263de0 3f205df3 3f1ab32b 3f153ba8 "
        "3f0ff59a 3f0adf41 3f05f6ee 3f013b01 3ef953ce 3ef0843d 3ee80460 3edfd167 "
        "3ed7e89b 3ed0475c 3ec8eb23 3ec1d181 3ebaf81b 3eb45ca9 3eadfcff 3ea7d6fd "
        "3ea1e89b 3e9c2fe1 3e96aaea 3e9157e1 3e8c3503 3e87409d 3e827908 3e7bb964 "
        "3e72d422 3e6a3f5b 3e61f836 3e59fbf2 3e5247ed 3e4ad997 3e43ae7c 3e3cc439 "
        "3e361887 3e2fa92d 3e297409 3e23770f 3e1db03f 3e181db4 3e12bd90 3e0d8e0f "
        "3e088d77 3e03ba20 3dfe24df 3df529ba 3dec7fd5 3de42451 3ddc1464 3dd44d6a "
        "3dcccccc 3dc5900d 3dbe94c7 3db7d8a7 3db15978 3dab150e 3da50957 3d9f344f "
        "3d99940d 3d9426b0 3d8eea6c 3d89dd84 3d84fe4c 3d804b28 3d778511 3d6ec5da "
        "3d6655c1 3d5e3200 3d5657e3 3d4ec4ce 3d477640 3d4069c8 3d399d18 3d330deb "
        "3d2cba15 3d269f7e 3d20bc1b 3d1b0e00 3d159348 3d104a22 3d0b30cb 3d064597 "
        "3d0186e2 3cf9e635 3cf11177 3ce88c9a 3ce054d1 3cd86761 3cd0c1a8 3cc9611b "
        "3cc2434e 3cbb65e2 3cb4c691 3cae6329 3ca83989 3ca247ac 3c9c8b96 3c970362 "
        "3c91ad39 3c8c8758 3c879009 3c82c5a3 3c7c4d30 3c7362b6 3c6ac8e6 3c627ce4 "
        "3c5a7bf1 3c52c367 3c4b50b5 3c442165 3c3d330e 3c368371 3c301050 3c29d788 "
        "3c23d70a 3c1e0cd7 3c187706 3c1313bb 3c0de12e 3c08dda3 3c040777 3bfeba18 "
        "3bf5b9ad 3bed0ab2 3be4aa45 3bdc95a0 3bd4ca15 3bcd4510 3bc6040a 3bbf04ab "
        "3bb8449a 3bb1c199 3bab7982 3ba56a3e 3b9f91cc 3b99ee3c 3b947daf 3b8f3e53 "
        "3b8a2e75 3b854c62 3b80967c 3b781667 3b6f520d 3b66dd02 3b5eb47a 3b56d5c1 "
        "3b4f3e33 3b47eb5a 3b40dac2 3b3a0a14 3b33770d 3b2d1f80 3b270153 3b211a7e "
        "3b1b690d 3b15eb1e 3b109ed8 3b0b8285 3b06946d 3b01d2f0 3afa78f0 3af19f03 "
        "3ae91528 3ae0d88d 3ad8e675 3ad13c38 3ac9d759 3ac2b55e 3abbd3eb 3ab530b6 "
        "3aaec98e 3aa89c52 3aa2a6f7 3a9ce783 3a975c0b 3a9202c0 3a8cd9d9 3a87dfa0 "
        "3a83126e 3a7ce158 3a73f1a2 3a6b52c4 3a6301e3 3a5afc37 3a533f24 3a4bc813 "
        "3a44948a 3a3da228 3a36ee9d 3a3077b3 3a2a3b44 3a24373f 3a1e69a2 3a18d089 "
        "3a136a14 3a0e347a 3a092e01 3a0454fe 39ff4fad 39f649f9 39ed95e4 39e53085 "
        "39dd1721 39d54703 39cdbd93 39c67852 39bf74d6 39b8b0ce 39b229fb 39abde2e "
        "39a5cb61 399fef7b 399a48a0 3994d4dd 398f9275 398a7f9a 39859aa4 3980e1fe "
        "3978a80d 396fde95 3967648c 395f3741 395753e2 394fb7ec 394860bf 39414bfc "
        "393a7753 3933e06a 392d852a 3927635f 39217919 391bc44b 39164326 3910f3c5 "
        "390bd46d 3906e374 39021f28 38fb0c05 38f22cdd 38e99e07 38e15c8e 38d965d3 "
    ),
    ("GPT-J", 64): (
        "3f800000 3f3ff911 3f0ff59a 3ed7e89b 3ea1e89b 3e72d423 3e361887 3e088d77 "
        "3dcccccd 3d99940d 3d6655c2 3d2cba15 3d0186e3 3cc2434f 3c91ad39 3c5a7bf2 "
        "3c23d70a 3bf5b9b0 3bb8449c 3b8a2e77 3b4f3e38 3b1b690d 3ae91528 3aaec98e "
        "3a83126f 3a44948c 3a136a16 39dd1725 39a5cb60 3978a815 393a7753 390bd472 "
    ),
    ("GPT-J", 512): (
        "3f800000 3f76f411 3f6e39f8 3f65ced3 3f5dafd7 3f55da52 3f4e4bad 3f470165 "
        "3f3ff911 3f39305c 3f32a506 3f2c54e5 3f263de0 3f205df3 3f1ab32b 3f153ba8 "
        "3f0ff59a 3f0adf41 3f05f6ef 3f013b01 3ef953cf 3ef0843c 3ee8045f 3edfd167 "
        "3ed7e89b 3ed0475c 3ec8eb24 3ec1d182 3ebaf81b 3eb45ca9 3eadfcff 3ea7d6fe "
        "3ea1e89b 3e9c2fe1 3e96aaea 3e9157e1 3e8c3504 3e87409d 3e827909 3e7bb964 "
        "3e72d423 3e6a3f5c 3e61f835 3e59fbf2 3e5247ed 3e4ad998 3e43ae7c 3e3cc43b "
        "3e361887 3e2fa92d 3e297409 3e23770f 3e1db040 3e181db4 3e12bd91 3e0d8e0f "
        "3e088d77 3e03ba20 3dfe24e0 3df529bc 3dec7fd6 3de42450 3ddc1466 3dd44d6c "
        "3dcccccd 3dc5900d 3dbe94c6 3db7d8a8 3db15978 3dab150f 3da50956 3d9f3451 "
        "3d99940d 3d9426b0 3d8eea6b 3d89dd84 3d84fe4d 3d804b29 3d778513 3d6ec5da "
        "3d6655c2 3d5e3201 3d5657e4 3d4ec4ce 3d47763f 3d4069c9 3d399d19 3d330dec "
        "3d2cba15 3d269f7d 3d20bc1d 3d1b0e01 3d159348 3d104a21 3d0b30cc 3d064597 "
        "3d0186e3 3cf9e635 3cf11177 3ce88c9b 3ce054d2 3cd86762 3cd0c1a8 3cc9611d "
        "3cc2434f 3cbb65e3 3cb4c691 3cae6329 3ca8398b 3ca247ad 3c9c8b97 3c970362 "
        "3c91ad39 3c8c8757 3c879008 3c82c5a5 3c7c4d33 3c7362b9 3c6ac8e7 3c627ce5 "
        "3c5a7bf2 3c52c366 3c4b50b3 3c442163 3c3d3311 3c368373 3c301052 3c29d789 "
        "3c23d70a 3c1e0cd7 3c187705 3c1313ba 3c0de12d 3c08dda5 3c040779 3bfeba1b "
        "3bf5b9b0 3bed0ab3 3be4aa46 3bdc95a0 3bd4ca15 3bcd450e 3bc6040f 3bbf04ae "
        "3bb8449c 3bb1c19b 3bab7983 3ba56a3f 3b9f91cc 3b99ee3b 3b947dae 3b8f3e56 "
        "3b8a2e77 3b854c64 3b80967d 3b781669 3b6f520e 3b66dd02 3b5eb47a 3b56d5bf "
        "3b4f3e38 3b47eb5e 3b40dac5 3b3a0a16 3b33770f 3b2d1f81 3b270153 3b211a7e "
        "3b1b690d 3b15eb1c 3b109edb 3b0b8287 3b06946f 3b01d2f0 3afa78f0 3af19f02 "
        "3ae91528 3ae0d88b 3ad8e673 3ad13c3c 3ac9d75c 3ac2b560 3abbd3ed 3ab530b7 "
        "3aaec98e 3aa89c51 3aa2a6f7 3a9ce782 3a975c0e 3a9202c3 3a8cd9db 3a87dfa1 "
        "3a83126f 3a7ce158 3a73f1a3 3a6b52c3 3a6301e2 3a5afc3b 3a533f28 3a4bc815 "
        "3a44948c 3a3da229 3a36ee9e 3a3077b3 3a2a3b44 3a24373f 3a1e69a5 3a18d08b "
        "3a136a16 3a0e347c 3a092e02 3a0454ff 39ff4fac 39f649f8 39ed95e2 39e5308a "
        "39dd1725 39d54706 39cdbd96 39c67853 39bf74d7 39b8b0ce 39b229fb 39abde33 "
        "39a5cb60 399fef7e 399a489e 3994d4df 398f9272 398a7f9b 39859aa9 3980e1fe "
        "3978a815 396fde93 39676492 395f373e 395753e4 394fb7e7 394860c1 39414c02 "
        "393a7753 3933e06f 392d8529 39276363 39217916 391bc44e 39164324 3910f3c6 "
        "390bd472 3906e374 39021f2b 38fb0c04 38f22ce2 38e99e05 38e15c91 38d965ce "
    ),
}

TABLE_CHECK = {
    64: (0.21467734375, 4.602435772431273),
    512: (0.210143359375, 5.219880138955555),
}
