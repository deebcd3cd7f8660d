import numpy as np, mpmath as mp
from scipy import special, optimize
from common import I
mp.mp.dps = 40
def I_mp(x, b):
    x = mp.mpf(x); b = mp.mpf(b)
    return (mp.ci(x) - mp.ci(x / b)) / mp.log(b)

print("first integer Delta with I(Delta+1) > I(Delta)  (numpy scan, confirmed with mpmath)")
for e in range(2, 7):
    b = 10.0**e
    n = np.arange(1, int(0.5*b) + 2, dtype=float)
    v = I(n, b)
    k = np.argmax(np.diff(v) > 0)
    D = int(n[k])
    # confirm with mpmath: all earlier steps negative near the candidate and this one positive
    ok = I_mp(D+1, b) > I_mp(D, b)
    prev = all(I_mp(m+1, b) < I_mp(m, b) for m in range(max(1, D-60), D))
    print(f"base 1e{e}: first rise at Delta = {D}  ratio {D/b:.5f}  mp-confirmed {ok and prev}")
print("prediction: cos(Delta/b) < 2 sin(1/2) -> Delta/b > arccos(2 sin 0.5) = %.5f" % np.arccos(2*np.sin(0.5)))

# real-variable non-monotonicity: I'(x) = (cos x - cos(x/b))/(x ln b) > 0 near x = 2 pi
b = 1e4
x = 2*np.pi
print("I'(2pi) for base 1e4:", (np.cos(x) - np.cos(x/b))/(x*np.log(b)), "> 0: I is not decreasing on the reals")

print("\nfirst zero of I (smallest x>0 with I(x)=0) / base")
for e in [1, 2, 3, 4, 5, 6]:
    b = 10.0**e
    grid = np.linspace(0.01, 2*b, 2_000_001)
    v = I(grid, b)
    k = np.argmax(v <= 0)
    z = optimize.brentq(lambda t: I(t, b), grid[k-1], grid[k], xtol=1e-13)
    zm = mp.findroot(lambda t: I_mp(t, b), z)
    # how many zeros within the next few units (I oscillates around zero there)
    sub = grid[(grid > z - 5) & (grid < z + 5)]
    nz = np.sum(np.diff(np.sign(I(sub, b))) != 0)
    print(f"base 1e{e}: first zero {float(zm):.6f}  /base = {float(zm)/b:.6f}   sign changes within +-5: {nz}")
print("first zero of Ci:", float(mp.findroot(mp.ci, 0.6)))

print("\nhalf value, base 1e4")
b = 1e4
grid = np.linspace(1, 200, 2_000_001)
v = I(grid, b)
idx = np.nonzero(np.diff(np.sign(v - 0.5)))[0]
roots = [float(mp.findroot(lambda t: I_mp(t, b) - 0.5, grid[i])) for i in idx]
print("all solutions of I = 1/2 in [1,200]:", roots, " e^-gamma sqrt(b) =", np.exp(-np.euler_gamma)*np.sqrt(b))
print("integers: I(55) =", float(I_mp(55, b)), " I(56) =", float(I_mp(56, b)))
