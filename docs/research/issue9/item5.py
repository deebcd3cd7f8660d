import numpy as np, mpmath as mp
from scipy import special
from common import I
mp.mp.dps = 30
# 1. |Ci(z)| < 1/z for all z>0: check z*|Ci(z)| < 1 on a wide log grid (scipy) and with mpmath at tiny z
z = np.logspace(-300, 15, 2_000_001)
ci = special.sici(z)[1]
print("max z|Ci(z)| on [1e-300,1e15]:", np.nanmax(z*np.abs(ci)), " (argmax z = %.4g)" % z[np.nanargmax(z*np.abs(ci))])
for zz in ['1e-300', '1e-10', '0.1', '1', '3']:
    print("  mpmath z|Ci(z)| at", zz, mp.nstr(mp.mpf(zz)*abs(mp.ci(mp.mpf(zz))), 8))
# auxiliary functions: f(z)=int_0^inf e^{-zt}/(1+t^2) dt, g(z)=int_0^inf t e^{-zt}/(1+t^2) dt ; Ci = f sin z - g cos z
for zz in [0.3, 1.0, 7.5]:
    f = mp.quad(lambda t: mp.e**(-zz*t)/(1+t*t), [0, mp.inf])
    g = mp.quad(lambda t: t*mp.e**(-zz*t)/(1+t*t), [0, mp.inf])
    print(f"  z={zz}: f sin z - g cos z = {mp.nstr(f*mp.sin(zz)-g*mp.cos(zz),12)}, Ci = {mp.nstr(mp.ci(zz),12)}, z|f+ig| = {mp.nstr(zz*abs(f+1j*g),8)}")
# 2. envelope
for b in [10.0, 1e2, 1e4, 1e6]:
    D = np.concatenate([np.logspace(-6, 9, 3_000_001), np.arange(1, 200001.0)])
    ratio = np.abs(I(D, b)) * D * np.log(b) / (1 + b)
    print(f"base {b:g}: max |I| D ln b/(1+b) over D in [1e-6,1e9] = {ratio.max():.8f}; envelope>1 for D < (1+b)/ln b = {(1+b)/np.log(b):.2f}")
# 3. asymptotic sharpness, base 1e4: max over one period 2 pi b of the ratio, beyond x
b = 1e4
print("base 1e4, integer offsets, sup over [x, x + 2 pi b] of |I| D ln b/(1+b):")
for x in [1e5, 1e6, 1e7, 1e8, 1e9]:
    D = np.arange(x, x + 2*np.pi*b + 1)
    r = np.abs(I(D, b)) * D * np.log(b) / (1 + b)
    print(f"   x={x:.0e}: {r.max():.10f}   1-max = {1-r.max():.2e}")
print("limit bound from below: (1 + b cos(pi/b))/(1+b) =", (1 + b*np.cos(np.pi/b))/(1+b), " 1 - that:", 1-(1 + b*np.cos(np.pi/b))/(1+b))
print("for b=1e4 (b/4 integer) exact-construction value (1 + b cos(pi/(2b)))/(1+b): 1 - that =", 1-(1 + b*np.cos(np.pi/(2*b)))/(1+b))
