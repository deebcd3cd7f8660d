import numpy as np
from common import *
from item2 import window_rms, d1, dstar
base=1e4; d=512
centers = np.unique(np.round(np.logspace(np.log10(200), 8, 56)))
res = {}
for w in [0.1, 0.2, 0.4]:
    rows = np.array([window_rms(d, c, w, M=60000) for c in centers])
    res[w] = rows
np.save("item2b.npy", np.array([res[w] for w in [0.1,0.2,0.4]]))
print(" center   | w=0.1: H_K  capped full | w=0.2: H_K capped full | w=0.4: H_K capped full")
for j, c in enumerate(centers):
    s = f"{c:10.0f} "
    for w in [0.1,0.2,0.4]:
        rms,p1,p2,p3 = res[w][j]
        s += f"| {rms/p1:6.3f} {rms/p2:6.3f} {rms/p3:6.3f} "
    print(s)
