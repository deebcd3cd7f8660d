"""Homework tasks whose answer is a value: a number, an integer, a tuple,
a boolean (checked by digests), or a value with a property (checked by a
test in ``posenc.homework_properties``).

The expected values are not written here: a number is stored as SHA-256
digests of the integers next to ``value / tolerance``, salted with the
task's name (``posenc.homework_judge.number_digests``), so any answer
within a tolerance of the right one is accepted and none more than two
tolerances from it; ``near`` holds the same for bins ``NEAR`` times wider
("close, give more digits"); ``slips`` the bins of known wrong values and
their usual roundings, each with its own hint. The digests keep the
answers from being read at a glance; they are not secret (the salt is
public and the answers are small numbers), which is why ``check`` also
limits the wrong answers it judges (``posenc.homework``).

Each hint names the idea or the step to use, never the result:
``tests/test_homework.py`` checks that no hint or slip contains a number
the check would accept or call close, nor the task's final formula.
"""

from __future__ import annotations

from .homework_judge import Task, digests
from .homework_properties import breaks_rms_law, clockwise_map, inverse_permutation

VALUE_TASKS = [
    Task(
        name="encoding-slowest-period",
        chapter="the_encoding",
        exercise="ex-encoding-longest-period",
        prompt=(
            "For $d = 512$ and base $10^4$: how many positions does the slowest pair "
            "take to complete one turn? Round to the nearest integer (an `int`)."
        ),
        starter=("theta = posenc.frequencies(512)\nanswer = ..."),
        kind="integer",
        hint=(
            "A pair's period is the number of positions its angle needs to grow by a "
            "full turn. Find the pair that turns slowest (how does θ_i change with i?) "
            "and use its frequency as the encoding defines it."
        ),
        digests=digests(
            """
            91a54b0e7f7448f639fd358f069b328dc61eaed180ee88dab21fdf4f626cb123
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                0bbe1f5cd3e6b12ff976e7cc88df4c58b8c4b66db0ee48bb70c253c4535e4c54
                630864fb70648cb8459faab4ca40d79428de04d8e0f6e61d3f1048e17b6afa46
                """
            ),
            (
                "That is the period of a frequency of exactly 1/base. Is the slowest "
                "pair's frequency exactly 1/base? Look at the largest index i the "
                "encoding uses."
            ),
        ),
    ),
    Task(
        name="encoding-max-distance",
        chapter="the_encoding",
        exercise="ex-encoding-distance",
        prompt=(
            "For $d = 64$ and base $10^4$: the largest distance $\\lVert p_m - "
            "p_n\\rVert$ over all offsets $1 \\le |m - n| \\le 100\\,000$ (a float, "
            "within about 0.001). Compare it with $\\sqrt{2d}$."
        ),
        starter=("offsets = np.arange(1, 100_001)\nanswer = ..."),
        kind="number",
        hint=(
            "Expand the squared distance into two squared lengths and an inner product;"
            " the chapter gives each as a function of the offset alone. Evaluate it at "
            "every offset of the range at once (numpy) and take the largest."
        ),
        digests=digests(
            """
            4a70e1695a873200db022a34bdb8b748ef00a5502449d6684ac7ece542c59547
            8a606f5c0e4c9ea615f3f2963ab0949396498559b9c240fbc11374b5cca7a5bc
            b71c6ed7cf0c3531f40e1f6be07840ad342fa4630180c95a9fc739fc0fc77ff3
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            66cd067b66844a1aa4c78990bd8b6bc0a2d9dae15e035e6fc1e722ba48dfdf29
            671d370d17b1f5d460cf5bf02f67c22224acede2111df4293ed8f9708d2be7b6
            c4524ed7fb2c8d5951b97beaf042437bf9e30f6e51cb88d012d83e4fe9db68f4
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                0a996115daee5554987bd07c121a986029886d72dd81ede8c14b0434215b9fcb
                2ae96b3d0b6dc898d988539bd1712a0d20f9e5b0cff5ef0dde275856f9162da5
                5c52ce39a878e1d8290d96cb43be0bbb49387c5c803b91831e5b8305aa3ea8d6
                6ac88aa94bee7828c86fea1f24865c19aafaa20340f9175a9381755eebee30cc
                8334e12e88f90c591b22f53ae7e249a2d495d599c2b5b800787cb3c7cfb44980
                a13c484980bbf7a36da44085d0fdfb6620d07e215d2cb9f55203ee332421e138
                a236b3df15c01234f7ccaa692cb28c9c81d08d2f35016ae00af195146492f809
                b47a4bed6dde33299a8a3e845fa6eb04103d6f0004651182fe24841fa054fa6d
                e501062d650b4b84727f57b05b64c447c680c67a974895b7fa356536ae4f3432
                ecaf31abeb3a2bc9b58b507042666b5548c6c96cdeec7cbc98f1f5124610d4e6
                """
            ),
            (
                "That is the bound √(2d). Do integer offsets reach it? Compute the "
                "distances over the range and take their maximum."
            ),
        ),
    ),
    Task(
        name="encoding-inverse-permutation",
        chapter="the_encoding",
        exercise="ex-encoding-permutation",
        prompt=(
            "For $d = 8$: the column order that turns the halves layout back into the "
            "interleaved one, as a list of 8 integers: `halves[:, answer]` must equal "
            "the interleaved table."
        ),
        starter=(
            "interleaved = posenc.encoding(np.arange(10), 8)\n"
            'halves = posenc.encoding(np.arange(10), 8, layout="halves")\n'
            "answer = ..."
        ),
        kind="property",
        hint=(
            "For each column of the interleaved table, in order, find where the same "
            "column (a sine or a cosine of some pair) sits in the halves table. The "
            "list of those places is the answer."
        ),
        test=inverse_permutation,
    ),
    Task(
        name="symmetry-maxpool",
        chapter="attention_is_blind_to_order",
        exercise="ex-symmetry-maxpool",
        prompt=(
            "Is the model with a maximum over positions (instead of the mean) still "
            "blind to word order? `True` or `False`."
        ),
        starter="answer = ...",
        kind="boolean",
        hint=(
            "What made the model with the mean blind to order? Ask whether a maximum "
            "over positions has the same property: reorder the rows of a small example "
            "and compare."
        ),
        digests=digests(
            """
            4f08d633eceb7547b768f3ad877560022da06e1082eb70326be55c4bd855a7b0
            """
        ),
    ),
    Task(
        name="symmetry-causal",
        chapter="attention_is_blind_to_order",
        exercise="ex-symmetry-causal",
        prompt=(
            "Put the three tokens before position 3 in each of their 6 orders. How many"
            " *different* rows 3 come out of one masked layer (`causal_attention`), and"
            " how many of two (`causal_layer` twice)? Count two rows as the same when "
            "every entry agrees to within $10^{-12}$ (`np.allclose(a, b, rtol=0, "
            "atol=1e-12)`). A tuple of two integers, e.g. `(2, 5)`; copy the two "
            "functions from the chapter's notebook."
        ),
        starter="answer = ...",
        kind="integers",
        hint=(
            "Write out what row 3 of one masked layer averages over, and what "
            "reordering the first three tokens does to that average. For two layers, "
            "ask what the second layer averages: the first layer's rows, and which of "
            "those see the order?"
        ),
        digests=digests(
            """
            a8cc51b9f807f64de1c407f0a453aca7a56cad661fc65420e78f361d8d83d651
            """
        ),
        length=2,
        slips=dict.fromkeys(
            digests(
                """
                0981110d22949047a703b0e65618280be6614c5ddbbc581f05cd0ca2551dcc52
                2d7632455535468e7bb43c010aaffe5dd15b83ed480a57641d52a1302666dbd3
                4295e9c69820cd1ebb11c57fdb635cf869c2619a6e9b92a903bffb1fe0138b6a
                cec8792aa16f9407b8a2ae6d4249c03078f0cf36bc0c166e1c7c2e970f81de13
                efbcae7000e5232f03d35fac956b8623c4703b51c6d811e0f8b2f2c7d8a42df0
                """
            ),
            (
                "Did you compare the rows of one layer exactly? The same terms summed "
                "in another order can round differently, by about 1e-16: floating-point"
                " addition is not associative. Count rows that agree to within 1e-12 as"
                " the same. (If they differ by more, look again at what row 3 of one "
                "masked layer averages.)"
            ),
        ),
    ),
    Task(
        name="symmetry-repeated",
        chapter="attention_is_blind_to_order",
        exercise="ex-symmetry-repeated",
        prompt=(
            "With $p_1 = p_2$ (positions 0, 1, 2), which swap of two words can the "
            "model still not see? The two positions as a tuple, smaller first, e.g. "
            "`(0, 2)`."
        ),
        starter="answer = ...",
        kind="integers",
        hint=(
            "Which reorderings of its input rows can the model not see? Ask which swap "
            "of two words leaves the collection of rows (word plus position vector) as "
            "it was."
        ),
        digests=digests(
            """
            12f8c961a0397bfc4eb85f131c1bb6dbc84a19ae0a565102ea78c5fcb3140abd
            """
        ),
        length=2,
        increasing=True,
    ),
    Task(
        name="taylor-rank",
        chapter="taylor_expansion",
        exercise="ex-taylor-rank",
        prompt=(
            "What is the smallest $d_k$ for which one head can have $H = I$ exactly "
            "when $d = 512$? An integer."
        ),
        starter="answer = ...",
        kind="integer",
        hint=(
            "Compare two ranks: the largest rank a product of a d×d_k and a d_k×d "
            "matrix can have, and the rank of the identity of size d."
        ),
        digests=digests(
            """
            2e1ffe1e6393defce8e6833e99d222770e5a7c58d9d16cdc12680f001431d4a8
            """
        ),
    ),
    Task(
        name="taylor-cosines",
        chapter="taylor_expansion",
        exercise="ex-taylor-cosines",
        prompt=(
            "With cosines alone, $p_t = (\\cos t\\theta_i)_i$, $\\theta_i$ = "
            "`posenc.frequencies(64)` (32 frequencies) and $H = I$: the part of "
            "$\\langle p_{100}, p_{103}\\rangle$ that depends on $m + n$ (a float, "
            "within about 0.001)."
        ),
        starter=("theta = posenc.frequencies(64)\nanswer = ..."),
        kind="number",
        hint=(
            "Apply the product-to-sum identity to cos(mθ_i)·cos(nθ_i), pair by pair, "
            "and keep only the terms whose angle involves m + n."
        ),
        digests=digests(
            """
            630415c68ce9e801aed8860ffb76f7517971dc8e4c9201b4f10729d62acd03a0
            6d057e48651095ba20734610f441135cfbcf8646a582bc02960c23fcb9f70b23
            b87565192c1e4fd9906f1e0cb9f11a736eb162cd1981e2c7a10062f976d99aa9
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            3236fbf8597cbe543fe725c64c14bee33f82a368a57d9f222dfabf2b718ee4a5
            7556798171552cbd4c6520d164bd5316edb4d4356186b638b04f36c3a0a39c6e
            bc694f94c00424f878448e7a2e3dd25c5885caa28ef29ea2005dabb70e052227
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                1efc8f4b027519e34a4f91c13978f3e285cbdee10e7aec60f19e1a94c9c1b856
                78bb35fd0d632d762772d688158c471e94854f5284a5b13b60a589a6a90647ad
                95fc1231ac086161453e0aec3be692c7014e6b61d15d103b39753a7250f899b1
                96e707df68a002eb1863fdb42c14f685fceaf6423a76cc05da88ba301def0ddc
                bfc7d4d0111035ef8fafba203e11cf9d2501e0578d55acb26268b66302b8f8f9
                caee4c9df26eab52f500e6e6274da198579d447fc07bd6dccd194b6ebc3d2796
                eb9627396fee3d28b745619b134c2b3618a405d345bb5f0cbc0622744c7eed3f
                f505821e38e91e264dafa0c45a28b88a888f5d088b3752f7f6bcac6071aa5f02
                f86cc961d4585e641f7109995a1eb0f3fac0b7c5c6d96d2914f0a809ac0b0ce6
                """
            ),
            (
                "Right size, wrong sign: recheck the sign of the m + n term in the "
                "product-to-sum identity for two cosines."
            ),
        ),
    ),
    Task(
        name="complex-radii",
        chapter="complex_solution",
        exercise="ex-complex-radii",
        prompt=(
            "With $p_m = (1 + 0.1m)(\\cos m\\theta, \\sin m\\theta)$ and $\\theta = "
            "0.3$: $\\langle p_2, p_0\\rangle - \\langle p_5, p_3\\rangle$ (the same "
            "offset 2; a float, within about 0.001)."
        ),
        starter=("theta = 0.3\nanswer = ..."),
        kind="number",
        hint=(
            "The inner product of two vectors in the plane is the product of their "
            "lengths times the cosine of the angle between them. Find each point's "
            "length and angle."
        ),
        digests=digests(
            """
            91c78890fe4688b11aa085139c49688debaa48fe2c4c7c4834273afdc14f9c6f
            c0e81be33754211081e8b502fb0a28ea89568c9ff41082a9f133aeafc2d1251e
            d07432b623b7465c93e37319e3b4f12c9329ad9465388dcf338efce85df6b355
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            0980694781122415498c0135efca44162ddf6d48f2f983d1db01b1b64397155d
            399ad14c8afab2a4ed79d57692cbbf7feb29093b6c892908e0721009ac343d52
            4e8d58c58c46d1f95c2dc821a3c17618f4a4bca0078812c0354e6e2ec67c012a
            """
        ),
    ),
    Task(
        name="complex-clockwise",
        chapter="complex_solution",
        exercise="ex-complex-clockwise",
        prompt=(
            "The orthogonal $2\\times 2$ matrix $O$ that maps $(\\cos m\\theta, \\sin "
            "m\\theta)$ to the clockwise hands $(\\cos m\\theta, -\\sin m\\theta)$ for "
            "every $m$ and $\\theta$ (a nested list or an array)."
        ),
        starter="answer = ...",
        kind="property",
        hint=(
            "Compare the two hands coordinate by coordinate: which fixed linear map "
            "turns one into the other for every m and θ? Try it on the two basis "
            "vectors."
        ),
        test=clockwise_map,
    ),
    Task(
        name="decay-half",
        chapter="decay_integral",
        exercise="ex-decay-half",
        prompt=(
            "For base $10^5$: the offset $\\Delta$ at which $I(\\Delta) = 1/2$ "
            "(`posenc.decay_integral`; a float, within about 0.05)."
        ),
        starter=("from scipy.optimize import brentq\n\nanswer = ..."),
        kind="number",
        hint=(
            "A root-finding problem for the exact integral (posenc.decay_integral at "
            "base 10⁵), not for the log law: first bracket the crossing of 1/2 by "
            "evaluating I at a few offsets."
        ),
        digests=digests(
            """
            a0eb8af091e72b0967ce9690d7c97cfeea15b988b173616566d5aada7edfb2bf
            b4f9b094b1f5d794f207beac04d2041d31443f1e5b8d786d70fb65c647a1de0a
            fd9bd0a19470b7cc7c695971d575f27ea207702f9dae583f46bcc01afb016446
            """
        ),
        tolerance=0.05,
        near=digests(
            """
            0b8f184133176f450fe55bbbc845d9f0e4a9bda9e16732d1ec41952074e67dea
            404f14c68cd3d08cabdc4924434676ff044cf20cd0ef995ae3160a64eb9e5cd9
            b87fdf811e799bfbb2ef8e42f73b6de9785b9c8e8f7e0b44b4edd2cd38dbd291
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                5fe6c263df9891e651f60553698441ac52907f6278baa133d397b71fc269e3fc
                c7ec40b0a05d1e9c62534d33e3c6250abf4058333ab80948c76d00cebacf1c65
                ce97a518f5cf7ad561991fe0cfb6afc7f29051cca6e09a200971038db78b0ff6
                d0315f9a40dd85d10fed15a64d7e5b2d9b97775efa2f40bc60ed292853db2af3
                """
            ),
            (
                "That is the log law's prediction; the exercise asks where the exact "
                "integral I(Δ) equals 1/2. Find that root numerically."
            ),
        ),
    ),
    Task(
        name="decay-cube-exponent",
        chapter="decay_integral",
        exercise="ex-decay-cube",
        prompt=(
            "$\\int_0^1\\cos(\\Delta\\tau^3)\\,d\\tau$ decays like $C\\,\\Delta^{a}$ "
            "for large $\\Delta$. The exponent $a$ (a float, within about "
            "0.001)."
        ),
        starter="answer = ...",
        kind="number",
        hint=(
            "Where does Δτ³ stay below about 1? The integral is dominated by that "
            "stretch of τ near 0."
        ),
        digests=digests(
            """
            7650e98b4c60318d272a48175b9b44565b2521b7efcae21fcf180048b92ad220
            e1a5dc7ab903d6b6841a9b76a9ec70138a83339be1bd42d85062a41d1e650a1a
            efabaf022e6df70218e341b62320711a43e4a04b7f7a02a5c063e9142182185e
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            2a06cf50eb536959e0e9321621b411c921a069f878c9a7794126f1ad6ec26ad9
            34fac9ba5616fd04dade0c685d01f4a894fc43ebc1f536affab0271bae3f6302
            94015793349c1a9395e7bf18819c9847b7a097975e80fdb88a16b87e24e35d6b
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                26ab9326e9d01fac006be3c7beb8e9720312e66c73a569ec19948815db608480
                e99b57446451b54945d7b8a000ce8b5e84694c4d9d79fccaf48d194f72ce2326
                f43ad889cd1cf43277186d6c5b7c8cc017feb82da7d8b29d88ca052bccc1b955
                """
            ),
            (
                "No: the integrand stops oscillating only near τ = 0, where Δτ³ stays "
                "below about 1. How long is that stretch, as a power of Δ? It sets the "
                "rate."
            ),
        ),
    ),
    Task(
        name="decay-cube-constant",
        chapter="decay_integral",
        exercise="ex-decay-cube",
        prompt=(
            "The leading constant $C$ of the same law (a float, within about 0.001). "
            "Check it numerically at a few large $\\Delta$."
        ),
        starter="answer = ...",
        kind="number",
        hint=(
            "Split the integral at τ = 1: the integral to infinity is given in the "
            "exercise's hint; show that the part beyond τ = 1 is of lower order in Δ."
        ),
        digests=digests(
            """
            1fa36f106896446bfa1ab00ef794e246daca73376095fa7f4a2b9a01db1a3a6c
            3c112a8d9ea50c74e5ac1eeeea193a81dfe43a3d997c9363d16f228aca58a730
            f3847440fa39ecbaaf34a4ca8816d9498b2bd4013c5e26eb337e302e86fd5504
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            bd05d67b7314d19ffd07c4702be1e84bb103b7aeefa5061df81dcb8ed4f51634
            d1b60fb40340981f52dbe86d7f03b3d9dedf2b31310b463390d1bec20fe85c81
            e0e62b65d333600af4095d2dacda3b4f53874d100dfafd882c1f63e45828c679
            """
        ),
    ),
    Task(
        name="decay-rope-threshold",
        chapter="decay_finite_d",
        exercise="ex-decay-rope-head",
        prompt=(
            "$\\Delta_1$ for a rotary head, $d = 128$ and base $10^4$ (a float, within "
            "about 0.005)."
        ),
        starter="answer = ...",
        kind="number",
        hint=(
            "Use the chapter's threshold Δ₁, the offset where the phase step between "
            "neighbouring pairs reaches a full turn, with d the head's width (not the "
            "model's)."
        ),
        digests=digests(
            """
            0f9b10748d82c26aebab08012d80a45f606f85e5f114dde1ed16ccad8dc97afd
            4fbc03281462a512a1a5235b5d3817d8fa7ae7b59c1eed6b67cdad21ea463e8c
            cc257ffbdde2db1dba8758909fb01bffb4ad962d46fa6813d04a21d17d8fecf7
            """
        ),
        tolerance=0.005,
        near=digests(
            """
            932c36b3c0d694c5dbb538361a56e26fdda18db6f8d9c259ae61feb77ffc4f9c
            bbd5519edc1321f8521e4bbf06bdaf0ccfcf52c02ab11328c15eb9fc1bf00577
            c31428ea3c949f6144ed1a676a434d5ea500b228278595819942b64fe4da7e18
            """
        ),
    ),
    Task(
        name="decay-double-nyquist",
        chapter="decay_finite_d",
        exercise="ex-decay-threshold",
        prompt=(
            "For $d = 512$ and base $10^4$: the offset $2\\Delta^*$ at which "
            "$\\Delta\\theta_0 - \\Delta\\theta_1 = 2\\pi$ exactly (a float, within "
            "about 0.005)."
        ),
        starter=("theta = posenc.frequencies(512)\nanswer = ..."),
        kind="number",
        hint=(
            "The prompt's condition is linear in Δ: solve it with the two fastest "
            "frequencies (posenc.frequencies)."
        ),
        digests=digests(
            """
            8d99699e205b8507d03c435f1d450c320fcd756103651d08ef9435ee01c15dbb
            a15ef5a6cec2cb8c94d5691dd39931ef591d169cd9844d4f5bf899c45fd321c6
            a7609fec42abd8dead62042edcb31fab57598a68e9a0161aba38e4fa4e699aa4
            """
        ),
        tolerance=0.005,
        near=digests(
            """
            252fe01d8076d9d753ed8d6911c9a931c7b25f2d33d4821ab4cbfcee5c6b938b
            45d20235d6c628e817b977cdc64673d8110b29c30bbc83934679a6eebe47d5e5
            d51a1298836eb365ac4298f3372efbc4f5c7fb40ae19f6d219f381e1b27d7f61
            """
        ),
        slips=dict.fromkeys(
            digests(
                """
                01c29a53e7dc7754e147f7db72ceaed2921b94fa5653db58072e6e3659ca4359
                08028210313aa449f8ed3bc16611984c2c5be010dc92f7bdce887e4cd4a1a92f
                0a5fdac2956fa3a9f993db5294a8c4218ca2c448b879c622aee58bf855c5a6c1
                4c1208bfa5bdef7cbab30b606fc72ae9fa6bf909309aa373b44279d76a3fedd9
                75f24f0d35839f5c7ce8a7db2d66d55bf0b752666409c1025306e79abfc5ebb0
                77f02000c48e5f5a8389ba73c312d4ee4ac688b1a6d0979d8043cf1621b963c6
                8ef6928d5aba0189f94c5300c9489006313762c76389de0a896069f8d7c2369b
                9cd7dbfcd855bb60be998193a6c3dcd0ad82c007d9ae0e1b94c5991c3c8c7886
                c43ae545effe35f6586ddc7685dc2bd1ab6f58a97c11228983ce3c3fbdecafe9
                """
            ),
            (
                "That is near the threshold Δ₁, which approximates 2Δ*; solve the "
                "prompt's condition exactly instead."
            ),
        ),
    ),
    Task(
        name="decay-rms-break",
        chapter="decay_finite_d",
        exercise="ex-decay-rms-proof",
        prompt=(
            "Two frequencies $(\\theta_0, \\theta_1)$ for which the long-run mean "
            "of $g(\\Delta)^2 = (\\cos\\Delta\\theta_0 + \\cos\\Delta\\theta_1)^2$ is "
            "*not* $N/2 = 1$ (a tuple of two floats). The check decides it for "
            "the mean over all integer offsets, not over a finite stretch, taking"
            " your floats as the exact numbers they hold; since no float is a "
            "nonzero multiple of $2\\pi$, a value within $10^{-9}$ of one (such as"
            " `2 * np.pi`) counts as that multiple."
        ),
        starter="answer = ...",
        kind="property",
        hint=(
            "Expand g² with the product-to-sum identity into a constant and cosines. "
            "The long-run mean of cos(Δα) over the integers vanishes unless α is "
            "special: choose the frequencies so that one of those angles is."
        ),
        test=breaks_rms_law,
    ),
    Task(
        name="decay-linear-zero",
        chapter="decay_finite_d",
        exercise="ex-decay-linear-zero",
        prompt=(
            "For the schedule $\\theta(\\tau) = \\tau$: the first positive zero of the "
            "integral $\\int_0^1\\cos(\\Delta\\tau)\\,d\\tau$ (a float, within about "
            "0.001)."
        ),
        starter="answer = ...",
        kind="number",
        hint=(
            "Integrate cos(Δτ) over [0, 1] in closed form, then ask where its numerator"
            " first vanishes for Δ > 0."
        ),
        digests=digests(
            """
            37bb5aa90833eeccfa926c23cace685cf10547793038a8ff01fd0c23e86fd341
            adef9dcc453306a20bd208a46862ce6cf11786cf74fce8c57bd35d542fa10261
            d36d3578780054d2f2266eda5da52f920859620527fef41819c37ad7f660a35a
            """
        ),
        tolerance=0.001,
        near=digests(
            """
            07be2d4768b4e89c55541441d72e73971c7c7ea45765ef685ad64a5b2abb5b41
            1595ca651b4a573358ab8718fd77786dd8062bd8b811da687870ad4cc6c124ed
            e964410232ff2e901ca7c846c5e02b522cce7bc0ceda12c801e35f2bfed1a8cb
            """
        ),
    ),
    Task(
        name="decay-linear-period",
        chapter="decay_finite_d",
        exercise="ex-decay-linear-zero",
        prompt=(
            "For $\\theta_i = 2i/d$ with $d = 64$: the period in $\\Delta$ of the exact"
            " sum $\\sum_i\\cos(\\Delta\\theta_i)$ (a float, within about 0.01)."
        ),
        starter="answer = ...",
        kind="number",
        hint=(
            "All the frequencies are whole multiples of one step, 2/d. After which "
            "offset is every angle back where it started, up to whole turns? Start from"
            " the smallest nonzero frequency."
        ),
        digests=digests(
            """
            3d22de3e9490ebf1d31134292561dbfd9120339ca3e52f7b768d3ce08c942f5e
            645cfcab38bcfa7a9c336831855a3c20f59c04a15d27db51974aadc289f8dea0
            ca8762d7d52e7bf33b547fc73942910945804de678730bd35ecd6a4a32a6d9d4
            """
        ),
        tolerance=0.01,
        near=digests(
            """
            0677bacb6a1d93a15b3565702d6e396f2845be1b8de2c2e5affbb11e66d2c7e3
            dc3f76e954faf51a1526c78c59c7d80cb2ce554879277d4dccc4547fc7ac82e3
            f1b3f6087d044b0c957f9bafd4b31e50a8a80b5866a31d482e41ac34a660444e
            """
        ),
    ),
]
