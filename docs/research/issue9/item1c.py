import numpy as np
from common import *
b = 1e4
print("real offsets: sup_{0<=D<=1.5D*} |E|/(2/d) (fine grid) vs c(r)/2 at r = 1.5D*/D1, c(r)=|cot(pi r) - 1/(pi r)|")
for d in [64,128,256,512,1024]:
    s = dstar(d); D = np.linspace(0, 1.5*s, 400001)
    E = S(D, d, b) - I(D, b) - endpoint(D, d, b)
    r = 1.5*s/d1(d, b)
    print(d, "sup %.3f" % (np.abs(E).max()*d/2), " r=%.4f  c(r)/2=%.3f" % (r, abs(1/np.tan(np.pi*r) - 1/(np.pi*r))/2))
print("d->inf limit c(0.75)/2 =", abs(1/np.tan(0.75*np.pi) - 1/(0.75*np.pi))/2)
# size at the threshold r=1: predicted half stationary amplitude 0.5/sqrt(N ln b), in units of 2/d
for d in [64,128,256,512,1024]:
    N = d//2; D = np.linspace(0.95*d1(d,b), 1.05*d1(d,b), 20001)
    E = S(D, d, b) - I(D, b) - endpoint(D, d, b)
    print(d, "max |E| for r in [0.95,1.05]: %.4f ; 1/sqrt(N ln b) = %.4f ; in units of 2/d: %.2f" % (np.abs(E).max(), 1/np.sqrt(N*np.log(b)), np.abs(E).max()*d/2))
