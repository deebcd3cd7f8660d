import numpy as np
from common import *
base = 1e4; lnb = np.log(base)
rng = np.random.default_rng(2)
Hcache = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, 3_000_001))])
def H(n): return Hcache[np.asarray(n, dtype=np.int64)]

def window_rms(d, c, w, M=40000):
    x = rng.uniform(c * (1 - w), c * (1 + w), M)
    E = S(x, d, base) - I(x, base) - endpoint(x, d, base)
    K = np.floor(x / (2 * dstar(d))).astype(np.int64)
    r = x / d1(d, base)
    Hfull = H(np.floor(r)) - H(np.ceil(r / base) - 1)          # stationary aliases k in [r/b, r]
    return (np.sqrt(np.mean(E**2)),
            np.sqrt(np.mean(H(K)) / (d * lnb)),                 # sqrt(H_K/(d ln b)), window-averaged
            np.sqrt(np.mean(np.minimum(H(K), lnb)) / (d * lnb)),# capped at 1/sqrt d
            np.sqrt(np.mean(Hfull) / (d * lnb)))               # aliases with t_k in [0,1]

if __name__ == "__main__":
    d = 512
    print("d=512: 2D*=%.2f D1=%.2f  b*D1=%.3g  K at which H_K=ln b: %d" % (2*dstar(d), d1(d), base*d1(d), np.argmax(Hcache > lnb)))
    centers = np.unique(np.round(np.logspace(np.log10(180), 8, 61)))
    for w in [0.1]:
        print(f"window: real offsets uniform in [c(1-{w}), c(1+{w})], 40000 samples; E = S - I - endpoint")
        print("   center    rms*sqrt(d)  ratio to: sqrt(H_K/(d ln b))  capped  full(k in [r/b,r])")
        for c in centers:
            rms, p1, p2, p3 = window_rms(d, c, w)
            print(f"{c:11.0f}  {rms*np.sqrt(d):8.4f}    {rms/p1:8.4f}  {rms/p2:8.4f}  {rms/p3:8.4f}")
