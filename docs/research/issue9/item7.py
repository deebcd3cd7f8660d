import numpy as np
from common import thetas
rng = np.random.default_rng(7)
def experiment(d, offsets, draws=200, base=1e4):
    th = thetas(d, base); N = d//2
    ratios, ratios_re, trivial_exceeded, trivial_ratio = [], [], [], []
    for D in offsets:
        e = np.exp(1j*D*th)
        Sj = np.cumsum(e)                       # S_1..S_N  (S_j = sum_{i<j})
        sumS = np.abs(Sj).sum()
        h = (rng.normal(size=(draws, N)) + 1j*rng.normal(size=(draws, N))) / np.sqrt(2)   # CN(0,1)
        score = h @ e
        hext = np.concatenate([h, np.zeros((draws,1))], axis=1)   # h_N = 0
        steps = np.abs(np.diff(hext, axis=1)).max(axis=1)
        # Abel identity check: sum h_i e_i = -sum_{j=1}^{N} S_j (h_j - h_{j-1})
        ident = -(np.diff(hext, axis=1) * Sj).sum(axis=1)
        assert np.max(np.abs(ident - score)) < 1e-9
        bound = steps * sumS
        assert np.all(np.abs(score) <= bound * (1 + 1e-12))
        ratios.append(bound/np.abs(score)); ratios_re.append(bound/np.abs(score.real))
        triv = np.abs(h).sum(axis=1)
        trivial_exceeded.append(bound > triv); trivial_ratio.append(bound/triv)
    r = np.concatenate(ratios); rr = np.concatenate(ratios_re)
    te = np.concatenate(trivial_exceeded); tr = np.concatenate(trivial_ratio)
    return np.median(r), np.median(rr), te.mean(), tr.min(), np.median(tr)
for rng_name, maker in [("integer offsets uniform in [1,2000]", lambda: rng.integers(1, 2001, 300).astype(float)),
                        ("real offsets uniform in [0,2000]",  lambda: rng.uniform(0, 2000, 300)),
                        ("integer offsets uniform in [1,100]", lambda: rng.integers(1, 101, 300).astype(float)),
                        ("integer offsets uniform in [1,20000]", lambda: rng.integers(1, 20001, 300).astype(float))]:
    print(rng_name)
    for d in [64, 128, 512]:
        m, mre, frac, trmin, trmed = experiment(d, maker())
        print(f"  d={d}: median bound/|complex score| = {m:.0f}; median bound/|Re score| = {mre:.0f}; "
              f"fraction with bound > sum|h_i|: {frac:.4f}; min bound/sum|h| = {trmin:.2f}, median {trmed:.1f}")
# slowly varying h: h_i = smooth profile -> bound becomes informative
print("smoothly varying h_i = exp(-i/N) * (1 + 0.01*noise) (d=512):")
d = 512; N = d//2; th = thetas(d)
for D in [10.0, 100.0, 1000.0]:
    e = np.exp(1j*D*th); Sj = np.cumsum(e)
    h = np.exp(-np.arange(N)/N) * (1 + 0.01*rng.normal(size=N))
    hext = np.append(h, 0.0)
    bound = np.abs(np.diff(hext)).max()*np.abs(Sj).sum()
    print(f"  D={D}: |score|={abs(h@e):.2f} bound={bound:.2f} trivial={np.abs(h).sum():.2f}")
print("h_i = 1 - i/N (steps 1/N, h_N = 0): bound = (1/N) sum_j |S_j| (RoFormer's relative upper bound)")
for d in [128, 512]:
    N = d//2; th = thetas(d); h = 1 - np.arange(N)/N
    for D in [1.0, 10.0, 100.0, 1000.0, 10000.0]:
        e = np.exp(1j*D*th); Sj = np.cumsum(e)
        bound = np.abs(np.diff(np.append(h, 0.0))).max()*np.abs(Sj).sum()
        print(f"  d={d} D={D:7.0f}: |score|={abs(h@e):8.2f}  bound={bound:8.2f}  trivial sum|h|={np.abs(h).sum():.1f}")
