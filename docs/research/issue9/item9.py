import numpy as np
rng = np.random.default_rng(9)
d = 8
# a "stack of circles": two circles, one fixed and one alternating component, rotated by a random orthogonal Q
r, th, a, b = np.array([1.3, 0.7]), np.array([0.9, 2.2]), 0.5, 0.4
Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
def p(m):
    m = np.atleast_1d(m).astype(float)
    cols = [r[0]*np.sin(m*th[0]), r[0]*np.cos(m*th[0]), r[1]*np.sin(m*th[1]), r[1]*np.cos(m*th[1]),
            a*np.ones_like(m), b*(-1.0)**m, 0*m, 0*m]
    return np.stack(cols, axis=1) @ Q.T
ms = np.arange(0, 40)
P = p(ms)
G = P @ P.T
print("Gram shift-invariant (Toeplitz):", np.abs(G[1:, 1:] - G[:-1, :-1]).max())
# U from data: least squares P[:-1] U = P[1:]; well defined because dependencies are preserved
U, *_ = np.linalg.lstsq(P[:-1], P[1:], rcond=None)
print("P[m] U = P[m+1] residual:", np.abs(P[:-1] @ U - P[1:]).max())
# a dependency among p_0..p_7 (rank 6 < 8 vectors) is preserved by the shift
c = np.linalg.svd(P[:8].T)[2][-1]
print("dependency sum c_m p_m =", np.abs(c @ P[:8]).max(), " -> sum c_m p_{m+1} =", np.abs(c @ P[1:9]).max())
# restrict U to V = span(p_m): orthogonal there, eigenvalues e^{+-i theta}, 1, -1
Vb = np.linalg.svd(P)[2][:np.linalg.matrix_rank(P)]        # orthonormal rows spanning V
UV = Vb @ U.T @ Vb.T                                        # column-convention matrix of U on V
print("dim V =", Vb.shape[0], "; ||UV^T UV - I|| =", np.linalg.norm(UV.T @ UV - np.eye(Vb.shape[0])))
ev = np.linalg.eigvals(UV)
print("eigen-angles of U on V:", np.sort(np.round(np.angle(ev), 6)), " expected +-0.9, +-2.2, 0, pi")
print("negative p_m = U^m p_0 for m=-5:", np.abs(p(-5) - p(0) @ np.linalg.matrix_power(np.linalg.pinv(U), 5)).max())
# counter-example: a table whose Gram is NOT shift invariant has a dependency that the shift breaks
Y = rng.normal(size=(10, 4))
c = np.linalg.svd(Y[:6].T)[2][-1]
print("random table: sum c_m y_m =", np.abs(c @ Y[:6]).max().round(12), " but sum c_m y_{m+1} =", np.abs(c @ Y[1:7]).max().round(3))
