import numpy as np
from common import thetas
rng = np.random.default_rng(8)
L, d, k = 64, 512, 5
X = rng.normal(size=(L, d))
A = np.linalg.pinv(X[:L-k]) @ X[k:]          # row convention: X[t] @ A = X[t+k]
res = np.abs(X[:L-k] @ A - X[k:]).max()
print(f"random table L={L}, d={d}, k={k}: max residual {res:.2e}; ||A^T A - I|| = {np.linalg.norm(A.T@A - np.eye(d)):.1f} (not orthogonal)")
# extrapolation: A does not predict row L-k -> L (none exists) nor is A(j)A(k) = A(j+k)
A2 = np.linalg.pinv(X[:L-2]) @ X[2:]; A3 = np.linalg.pinv(X[:L-3]) @ X[3:]
A1 = np.linalg.pinv(X[:L-1]) @ X[1:]
print("A(2)A(3) reproduces the shift by 5 on rows 0..L-6 (max err %.1e), but as matrices ||A(1)^5 - A(5)|| = %.2f and ||A(2)A(3)-A(5)|| = %.2f: the maps are not unique and not a group"
      % (np.abs(X[:L-5]@A2@A3 - X[5:]).max(), np.linalg.norm(np.linalg.matrix_power(A1, 5) - A), np.linalg.norm(A2@A3 - A)))
n = np.linalg.norm(X, axis=1)
print("row norms of the random table range %.1f..%.1f, so no orthogonal map can shift it" % (n.min(), n.max()))
# beyond the dimension: L - k > d rows -> generically no exact map
L2 = 2*d
Y = rng.normal(size=(L2, d))
B, *_ = np.linalg.lstsq(Y[:L2-k], Y[k:], rcond=None)
print(f"random table L={L2} > d: relative lstsq residual {np.linalg.norm(Y[:L2-k]@B - Y[k:])/np.linalg.norm(Y[k:]):.3f}")
# sinusoidal: T(k) block-diagonal rotation, orthogonal, valid for all t, group law
def P(t, d, base=1e4):
    th = thetas(d, base); t = np.atleast_1d(t).astype(float)
    out = np.empty((t.size, d)); out[:, 0::2] = np.sin(np.outer(t, th)); out[:, 1::2] = np.cos(np.outer(t, th)); return out
def T(k, d, base=1e4):
    th = thetas(d, base); M = np.zeros((d, d))
    for i, a in enumerate(k*th):
        c, s = np.cos(a), np.sin(a)
        M[2*i:2*i+2, 2*i:2*i+2] = [[c, -s], [s, c]]     # row convention: p_t @ M = p_{t+k}
    return M
ts = np.arange(-10000, 10000, 7)
print("sinusoidal: max |P(t) T(5) - P(t+5)| over t in [-1e4,1e4]:", np.abs(P(ts, d)@T(5, d) - P(ts+5, d)).max())
print("            ||T^T T - I|| =", np.linalg.norm(T(5, d).T@T(5, d) - np.eye(d)), "; ||T(2)T(3) - T(5)|| =", np.linalg.norm(T(2, d)@T(3, d) - T(5, d)))
print("            sinusoidal table L=2d: lstsq residual", np.linalg.norm(P(np.arange(2*d-k), d)@T(k, d) - P(np.arange(k, 2*d), d)))
