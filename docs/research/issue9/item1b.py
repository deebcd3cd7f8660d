import numpy as np
from common import *
base = 1e4
# fine (non-integer) grid check of |E| <= |cot(pi r) - 1/(pi r)|/d, r = Delta/D1
for base in [1e2, 1e4, 1e6]:
  for d in [32, 64,128,256,512,1024]:
    D1 = d1(d, base)
    off = np.linspace(1e-3, 0.98*D1, 200001)
    E = S(off, d, base) - I(off, base) - endpoint(off, d, base)
    r = off / D1
    c = np.abs(1/np.tan(np.pi*r) - 1/(np.pi*r))
    ratio = np.abs(E) * d / c
    out = []
    for rmax in [0.5, 0.75, 0.9, 0.95, 0.98]:
        m = r <= rmax
        out.append(ratio[m].max())
    print(base, d, " max |E| d / c(r) for r<= .5,.75,.9,.95,.98:", " ".join(f"{v:.4f}" for v in out))
