import numpy as np
from common import *
from scipy import stats
base = 1e4
rng = np.random.default_rng(3)
off = rng.integers(10**6, 10**8, size=10**6, endpoint=True).astype(float)
for d in [64, 512]:
    x = S(off, d, base)
    rms = np.sqrt(np.mean(x**2))
    frac = np.mean(np.abs(x) < 0.1 / np.sqrt(d))
    print(f"d={d}: rms*sqrt(d) = {rms*np.sqrt(d):.4f}; fraction |g|/(d/2) < 0.1/sqrt(d): {frac:.4f} "
          f"(Gaussian with sd 1/sqrt d: {2*stats.norm.cdf(0.1)-1:.4f}); "
          f"fraction < 0.01/sqrt(d): {np.mean(np.abs(x) < 0.01/np.sqrt(d)):.5f}; min |x|*sqrt(d) = {np.abs(x).min()*np.sqrt(d):.2e}; "
          f"max|I| on sample {np.abs(I(off)).max():.2e}")
    # binomial standard error
    print("   s.e. of fraction:", np.sqrt(frac*(1-frac)/off.size))
    # kurtosis / distribution check
    z = x*np.sqrt(d)
    print("   quantiles of |x|sqrt d at 1,5,8,50%:", np.quantile(np.abs(z), [0.01,0.05,0.08,0.5]).round(4),
          " Gaussian:", stats.norm.ppf(0.5+np.array([0.01,0.05,0.08,0.5])/2).round(4), " excess kurtosis %.3f" % stats.kurtosis(z))
