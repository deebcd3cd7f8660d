import numpy as np
from common import *
from item2 import window_rms
import item2
for d in [64, 128, 1024]:
    s = 2*dstar(d)
    cs = np.logspace(np.log10(1.5*s), np.log10(2e7), 14)
    r = np.array([window_rms(d, c, 0.2, M=40000) for c in cs])
    cap = r[:,0]/r[:,2]; full = r[:,0]/r[:,3]
    print(f"d={d}: 2D*={s:.1f}; rms/capped over c in [1.5*2D*, 2e7]: min {cap.min():.3f} max {cap.max():.3f}; rms/full: min {full.min():.3f} max {full.max():.3f}")
# integer check of item 4 margin
from common import I
n = np.arange(0, 2941, dtype=float); dv = np.diff(I(n))
print("item4: largest (least negative) step before 2940:", dv.max(), "at", n[np.argmax(dv)], " float noise ~", 1e-16*2)
