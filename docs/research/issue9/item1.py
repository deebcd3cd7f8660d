import numpy as np
from common import *
base = 1e4
print("d, Dstar, D1=pi d/ln b, 2Dstar, 2Dstar-D1")
for d in [64,128,256,512,1024]:
    print(d, round(dstar(d),3), round(d1(d),3), round(2*dstar(d),3), round(2*dstar(d)-d1(d),4))
print()
# error after endpoint correction, scaled by d/2 (i.e. in units of 2/d)
xs = [0.5, 1.0, 1.25, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.2, 2.5, 3.0]
print("max over integer 0<=Delta<=x*Dstar of |S-I-endpoint| / (2/d)")
print("d    " + " ".join(f"{x:6.2f}" for x in xs))
res = {}
for d in [64,128,256,512,1024]:
    ds = dstar(d)
    off = np.arange(0, int(3.2*ds)+1, dtype=float)
    E = S(off, d, base) - I(off, base) - endpoint(off, d, base)
    res[d] = (off, E)
    row = [np.abs(E[off <= x*ds]).max() * d/2 for x in xs]
    print(f"{d:5d}" + " ".join(f"{v:6.3f}" for v in row))
print()
# prediction of the leading local (t=0) endpoint term: E0 = sin(D)(cot(pi r) - 1/(pi r))/d, r = D/D1
print("check E ~ E0 = sin(D)(cot(pi r)-1/(pi r))/d, r = D ln b/(pi d): max|E-E0|/(2/d) for r<=rmax")
for d in [64,128,256,512,1024]:
    off, E = res[d]
    r = off * np.log(base) / (np.pi * d)
    with np.errstate(divide='ignore', invalid='ignore'):
        E0 = np.sin(off) * (1/np.tan(np.pi*r) - 1/(np.pi*r)) / d
    E0[0] = 0
    for rmax in [0.5, 0.75, 0.9]:
        m = (r <= rmax)
        print(d, rmax, "max|E|*d/2=%.3f  max|E-E0|*d/2=%.4f" % (np.abs(E[m]).max()*d/2, np.abs(E[m]-E0[m]).max()*d/2))
print()
# uniform bound in terms of r: |E| <= C(r)/d with C(r)=|cot(pi r)-1/(pi r)| ?
print("worst ratio |E| / (|cot(pi r)-1/(pi r)|/d + ???)")
for d in [64,128,256,512,1024]:
    off, E = res[d]
    r = off * np.log(base) / (np.pi * d)
    m = (r > 0) & (r <= 0.9)
    pred = np.abs(1/np.tan(np.pi*r[m]) - 1/(np.pi*r[m])) / d
    print(d, "max |E|/pred = %.3f" % (np.abs(E[m])/pred).max(), " max |E|*d - pred*d = %.4f" % ((np.abs(E[m]) - pred)*d).max())
# Euler-Maclaurin second term: (f'(1)-f'(0))/(12N^2)
print()
print("EM term -D ln b sin D /(12 N^2) vs E at small D; relative size of EM2 term to 2/d at D=D1: 2pi/12 =", 2*np.pi/12)
for d in [64, 512]:
    off, E = res[d]; N = d//2
    em2 = (off*np.log(base)/base*np.sin(off/base) - off*np.log(base)*np.sin(off)) / (12*N**2)
    for rmax in [0.1, 0.25, 0.5]:
        m = off <= rmax*d1(d)
        print(d, rmax, "max|E-EM2|*d/2 = %.2e, max|E|*d/2=%.2e" % (np.abs(E[m]-em2[m]).max()*d/2, np.abs(E[m]).max()*d/2))
