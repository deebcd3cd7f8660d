import numpy as np, mpmath as mp
from scipy import special, integrate
def J(D):
    D = np.asarray(D, float)
    x = np.sqrt(2*D/np.pi)
    Sf, Cf = special.fresnel(x)       # scipy: (S, C) with C(x)=int_0^x cos(pi u^2/2) du
    return np.sqrt(np.pi/(2*D)) * Cf
# closed form check against quadrature
for D in [0.5, 3.0, 40.0, 1000.0]:
    q = float(mp.quad(lambda t: mp.cos(D*t*t), mp.linspace(0, 1, 50)))
    print(f"J({D}) closed form {J(D):.15f}  quadrature {q:.15f}")
# positivity: min of J over a fine grid, and min of Fresnel C on x>0 beyond x=1
D = np.concatenate([np.logspace(-8, 2, 200001), np.linspace(100, 1e6, 5_000_001)])
v = J(D)
print("min J on (1e-8, 1e6]:", v.min(), "at D =", D[v.argmin()], "; min J*sqrt(8D/pi):", (v*np.sqrt(8*D/np.pi)).min(),
      "at D=", D[(v*np.sqrt(8*D/np.pi)).argmin()])
x = np.linspace(1, 200, 2_000_001)
C = special.fresnel(x)[1]
print("min Fresnel C on [1,200]:", C.min(), "at x=", x[C.argmin()], " (C(sqrt 3) =", special.fresnel(np.sqrt(3))[1], ")")
# asymptotics with explicit remainder: J = sqrt(pi/(8D)) + sin(D)/(2D) - R, |R| <= 1/(2 D^2)
for lo in [1.0, 10.0, 100.0]:
    DD = np.linspace(lo, lo*1000, 3_000_001)
    R = np.sqrt(np.pi/(8*DD)) + np.sin(DD)/(2*DD) - J(DD)
    E = J(DD) - np.sqrt(np.pi/(8*DD))
    print(f"D in [{lo},{lo*1000}]: max |R| 2D^2 = {np.max(np.abs(R)*2*DD**2):.4f} (<=1);  max |J - sqrt(pi/8D)| / (1/(2D)+1/(2D^2)) = {np.max(np.abs(E)/(1/(2*DD)+1/(2*DD**2))):.4f}")
# where the simple tail bound alone already guarantees positivity
Ds = np.linspace(0.01, 5, 100000)
ok = np.sqrt(np.pi/(8*Ds)) > 1/(2*Ds) + 1/(2*Ds**2)
print("sqrt(pi/(8D)) > 1/(2D)+1/(2D^2) for all D >=", Ds[np.argmax(ok)])
