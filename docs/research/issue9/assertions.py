"""Suggested assertions (numpy/scipy only). Each check_k(wrong=False) must pass;
check_k(wrong=True) encodes a deliberately wrong version of the claim and must fail."""
import numpy as np
from scipy import special, optimize

def thetas(d, base=1e4):
    return base ** (-2.0 * np.arange(d // 2) / d)

def normalised_sum(delta, d, base=1e4, chunk=20000):
    delta = np.asarray(delta, dtype=float).ravel(); th = thetas(d, base)
    return np.concatenate([np.cos(np.outer(delta[a:a + chunk], th)).mean(axis=1)
                           for a in range(0, delta.size, chunk)])

def I(delta, base=1e4):
    x = np.abs(np.asarray(delta, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        v = (special.sici(x)[1] - special.sici(x / base)[1]) / np.log(base)
    return np.where(x == 0, 1.0, v)

def dstar(d, base=1e4):
    return np.pi / (1 - base ** (-2.0 / d))

# ---------------------------------------------------------------- item 1
def check_1(wrong=False):
    """|S - I - (cos D - cos(D/b))/d| <= 0.7*(2/d) for integers 0 <= D <= 1.5 D*, while
    max over 2D* <= D <= 3D* is >= 0.35/sqrt(d) (d = 64..1024, base 1e4).
    Wrong version: 'follows to 0.7*(2/d) up to 2 D*'."""
    hi = 2.0 if wrong else 1.5
    for d in [64, 128, 256, 512, 1024]:
        s = dstar(d)
        D = np.arange(0, int(3 * s) + 1, dtype=float)
        E = normalised_sum(D, d) - I(D) - (np.cos(D) - np.cos(D / 1e4)) / d
        assert np.abs(E[D <= hi * s]).max() <= 0.7 * 2 / d, (d, np.abs(E[D <= hi * s]).max() * d / 2)
        assert np.abs(E[D >= 2 * s]).max() >= 0.35 / np.sqrt(d), d

# ---------------------------------------------------------------- item 2
def check_2(wrong=False):
    """d = 512, base 1e4. For centres c in [267, 1.8e7], the rms of E = S - I - endpoint over real offsets
    uniform in [0.8c, 1.2c] equals sqrt(<min(H_K, ln b)>/(d ln b)), K = floor(D/(2 D*)), within 2%.
    Wrong version: uncapped H_K."""
    d, b = 512, 1e4; lnb = np.log(b)
    H = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, 200_001))])
    rng = np.random.default_rng(12)
    for c in np.logspace(np.log10(267), np.log10(1.8e7), 25):
        x = rng.uniform(0.8 * c, 1.2 * c, 40_000)
        E = normalised_sum(x, d) - I(x) - (np.cos(x) - np.cos(x / b)) / d
        HK = H[np.floor(x / (2 * dstar(d))).astype(int)]
        pred = np.sqrt(np.mean(HK if wrong else np.minimum(HK, lnb)) / (d * lnb))
        assert abs(np.sqrt(np.mean(E ** 2)) / pred - 1) <= 0.02, (c, np.sqrt(np.mean(E ** 2)) / pred)

# ---------------------------------------------------------------- item 3
def check_3(wrong=False):
    """d = 512, base 1e4, integer offsets uniform in [1e6, 1e8]: rms of g/(d/2) is 1/sqrt(d) within 1%,
    and about 8% (7.5%..8.5%) of offsets have |g|/(d/2) < 0.1/sqrt(d). Wrong version: 'never below 0.1/sqrt(d)'."""
    d = 512
    D = np.random.default_rng(3).integers(10**6, 10**8, 300_000, endpoint=True)
    x = normalised_sum(D, d)
    assert abs(np.sqrt(np.mean(x ** 2)) * np.sqrt(d) - 1) < 0.01
    frac = np.mean(np.abs(x) < 0.1 / np.sqrt(d))
    assert (frac == 0.0) if wrong else (0.075 < frac < 0.085), frac

# ---------------------------------------------------------------- item 4
def check_4(wrong=False):
    """base 1e4: I strictly decreasing on integers 0..2940 and I(2941) > I(2940); first zero 6166.03,
    half value 55.15. Wrong version: 'decreasing on integers up to the first zero'."""
    b = 1e4
    last = 6166 if wrong else 2940
    v = I(np.arange(0, last + 1, dtype=float), b)
    assert np.all(np.diff(v) < 0), np.argmax(np.diff(v) >= 0)
    assert I(2941.0, b) > I(2940.0, b)
    z = optimize.brentq(lambda t: I(t, b), 6000, 6300)
    assert np.all(I(np.linspace(1, z, 200_001)[:-1], b) > 0) and abs(z - 6166.03) < 0.01
    h = optimize.brentq(lambda t: I(t, b) - 0.5, 2, 1000)
    assert abs(h - 55.15) < 0.01

# ---------------------------------------------------------------- item 5
def check_5(wrong=False):
    """|Ci(z)| < 1/z for all z > 0; hence |I(D)| < (1+b)/(|D| ln b) for D != 0 (strict), and the bound is
    asymptotically sharp: sup over one period 2 pi b beyond 1e7 of |I| D ln b/(1+b) exceeds 1 - 1e-5.
    Wrong version: envelope b/(|D| ln b)."""
    z = np.logspace(-300, 15, 1_000_001)
    assert np.all(z * np.abs(special.sici(z)[1]) < 1)
    for b in [10.0, 1e4, 1e6]:
        D = np.concatenate([np.logspace(-6, 9, 1_000_001), np.arange(1, 100_001.0)])
        env = (b if wrong else 1 + b) / (D * np.log(b))
        assert np.all(np.abs(I(D, b)) < env), b
    b = 1e4
    D = np.arange(1e7, 1e7 + 2 * np.pi * b + 1)
    assert (np.abs(I(D, b)) * D * np.log(b) / (1 + b)).max() > 1 - 1e-5

# ---------------------------------------------------------------- item 6
def check_6(wrong=False):
    """J(D) = int_0^1 cos(D t^2) dt = sqrt(pi/(2D)) C(sqrt(2D/pi)) > 0 for all D > 0;
    |J - sqrt(pi/(8D)) - sin(D)/(2D)| <= 1/(2D^2) for D >= 1. Wrong version: drop the sin(D)/(2D) term."""
    D = np.concatenate([np.logspace(-8, 3, 500_001), np.linspace(1e3, 1e6, 2_000_001)])
    J = np.sqrt(np.pi / (2 * D)) * special.fresnel(np.sqrt(2 * D / np.pi))[1]
    assert np.all(J > 0)
    big = D >= 1
    main = np.sqrt(np.pi / (8 * D[big])) + (0 if wrong else np.sin(D[big]) / (2 * D[big]))
    assert np.all(np.abs(J[big] - main) <= 1 / (2 * D[big] ** 2))

# ---------------------------------------------------------------- item 7
def check_7(wrong=False):
    """h_i iid CN(0,1), integer offsets uniform in [1,2000], 300 offsets x 200 draws: median of
    bound/|sum h_i e^{i D th_i}| is 70, 180, 1150 (+-20%) for d = 64, 128, 512, and the bound exceeds
    sum|h_i| in every case. Wrong version: same medians claimed for bound/|Re score|."""
    rng = np.random.default_rng(7)
    for d, target in [(64, 70), (128, 180), (512, 1150)]:
        th = thetas(d); N = d // 2; ratios = []
        for D in rng.integers(1, 2001, 300):
            e = np.exp(1j * D * th); sumS = np.abs(np.cumsum(e)).sum()
            h = (rng.normal(size=(200, N)) + 1j * rng.normal(size=(200, N))) / np.sqrt(2)
            steps = np.abs(np.diff(np.concatenate([h, np.zeros((200, 1))], axis=1), axis=1)).max(axis=1)
            score = h @ e
            assert np.all(steps * sumS > np.abs(h).sum(axis=1))
            ratios.append(steps * sumS / np.abs(score.real if wrong else score))
        med = np.median(np.concatenate(ratios))
        assert abs(med / target - 1) < 0.2, (d, med)

# ---------------------------------------------------------------- item 8
def check_8(wrong=False):
    """Any L <= d random Gaussian rows: an exact linear shift map t -> t+k exists (L=64, d=512, k=5).
    Wrong version: the same for L = 2d rows."""
    rng = np.random.default_rng(8)
    d, k = 512, 5; L = 2 * d if wrong else 64
    X = rng.normal(size=(L, d))
    A = np.linalg.lstsq(X[:L - k], X[k:], rcond=None)[0]
    assert np.abs(X[:L - k] @ A - X[k:]).max() < 1e-9

# ---------------------------------------------------------------- item 9
def check_9(wrong=False):
    """If the Gram matrix is shift-invariant, every linear dependency among p_0..p_{M-1} holds for
    p_1..p_M (so U is well defined). Wrong version: a table without shift-invariant Gram."""
    rng = np.random.default_rng(9)
    d = 8
    Q = np.linalg.qr(rng.normal(size=(d, d)))[0]
    m = np.arange(12.0)
    P = np.stack([1.3 * np.sin(.9 * m), 1.3 * np.cos(.9 * m), .7 * np.sin(2.2 * m), .7 * np.cos(2.2 * m),
                  .5 + 0 * m, .4 * (-1) ** m, 0 * m, 0 * m], axis=1) @ Q.T
    if wrong:
        P = rng.normal(size=(12, 4))
    G = P @ P.T
    if not wrong:
        assert np.abs(G[1:, 1:] - G[:-1, :-1]).max() < 1e-12
    c = np.linalg.svd(P[:8].T)[2][-1]       # sum c_m p_m = 0 (8 vectors, rank < 8)
    assert np.abs(c @ P[:8]).max() < 1e-12
    assert np.abs(c @ P[1:9]).max() < 1e-12

# ---------------------------------------------------------------- item 10
def check_10(wrong=False):
    """Sine-first layout, d = 8, generic theta: the H with p_m^T H p_n = F(m - n) form exactly the
    4*2-dimensional space blockdiag(a_i I + b_i J), J = [[0,-1],[1,0]], and then
    p_m^T H p_n = sum a_i cos(D th_i) - b_i sin(D th_i). Wrong version: '+ b_i sin'."""
    rng = np.random.default_rng(10)
    d = 8; th = np.sort(rng.uniform(0.1, 3.0, d // 2))
    def P(t):
        t = np.atleast_1d(np.asarray(t, float)); out = np.empty((t.size, d))
        out[:, 0::2] = np.sin(np.outer(t, th)); out[:, 1::2] = np.cos(np.outer(t, th)); return out
    ms, ns = np.meshgrid(np.arange(-6, 7), np.arange(-6, 7)); ms, ns = ms.ravel(), ns.ravel()
    # linear map vec(H) -> [F(m+1,n+1) - F(m,n)]
    A = np.einsum('ki,kj->kij', P(ms + 1), P(ns + 1)) - np.einsum('ki,kj->kij', P(ms), P(ns))
    A = A.reshape(len(ms), d * d)
    sv = np.linalg.svd(A, compute_uv=False)
    assert np.sum(sv < 1e-9 * sv[0]) == d          # null space of dimension d
    J = np.array([[0.0, -1.0], [1.0, 0.0]])
    a, b = rng.normal(size=d // 2), rng.normal(size=d // 2)
    H = np.zeros((d, d))
    for i in range(d // 2):
        H[2*i:2*i+2, 2*i:2*i+2] = a[i] * np.eye(2) + b[i] * J
    assert np.abs(A @ H.ravel()).max() < 1e-10
    sign = 1 if wrong else -1
    lhs = np.einsum('ki,ij,kj->k', P(ms), H, P(ns))
    rhs = (a * np.cos(np.outer(ms - ns, th)) + sign * b * np.sin(np.outer(ms - ns, th))).sum(axis=1)
    assert np.abs(lhs - rhs).max() < 1e-10

if __name__ == "__main__":
    import time
    for k in range(1, 11):
        f = globals()[f"check_{k}"]
        t = time.time(); f(); ok = "passes"
        try:
            f(wrong=True); bad = "WRONG VERSION ALSO PASSES (bad test)"
        except AssertionError as e:
            bad = f"wrong version fails as intended: AssertionError{e.args!r}"
        print(f"item {k}: right version {ok} ({time.time()-t:.1f}s); {bad}")
