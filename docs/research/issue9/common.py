import numpy as np
from scipy import special

def thetas(d, base=1e4):
    return base ** (-2.0 * np.arange(d // 2) / d)

def S(delta, d, base=1e4, chunk=20000):
    """normalised exact sum g(delta)/(d/2); delta array (float64)."""
    delta = np.atleast_1d(np.asarray(delta, dtype=float))
    th = thetas(d, base)
    out = np.empty(delta.shape)
    for a in range(0, delta.size, chunk):
        out[a:a+chunk] = np.cos(np.multiply.outer(delta[a:a+chunk], th)).mean(axis=1)
    return out

def I(delta, base=1e4):
    x = np.abs(np.asarray(delta, dtype=float))
    with np.errstate(divide='ignore', invalid='ignore'):
        v = (special.sici(x)[1] - special.sici(x / base)[1]) / np.log(base)
    return np.where(x == 0, 1.0, v)

def dstar(d, base=1e4):
    return np.pi / (1 - base ** (-2.0 / d))

def d1(d, base=1e4):
    """first alias threshold 2 pi N / ln base = pi d / ln base"""
    return np.pi * d / np.log(base)

def endpoint(delta, d, base=1e4):
    return (np.cos(delta) - np.cos(delta / base)) / d
