import sympy as sp
m, n = sp.symbols('m n', integer=True)
t0, t1 = sp.symbols('theta0 theta1', positive=True)
th = [t0, t1]
d = 4
Hs = sp.Matrix(d, d, lambda i, j: sp.Symbol(f'h{i}{j}'))
def p(k):   # sine-first interleaved layout
    return sp.Matrix([sp.sin(k*th[0]), sp.cos(k*th[0]), sp.sin(k*th[1]), sp.cos(k*th[1])])
F = (p(m).T * Hs * p(n))[0]

# (1) "if": H = blockdiag(a_i I + b_i J), J = [[0,-1],[1,0]]  ->  sum a_i cos(D th_i) - b_i sin(D th_i)
a0, b0, a1, b1 = sp.symbols('a0 b0 a1 b1', real=True)
J = sp.Matrix([[0, -1], [1, 0]])
H = sp.diag(a0*sp.eye(2) + b0*J, a1*sp.eye(2) + b1*J)
Fh = (p(m).T * H * p(n))[0]
claim = sum(a*sp.cos((m-n)*t) - b*sp.sin((m-n)*t) for a, b, t in [(a0, b0, t0), (a1, b1, t1)])
print("if-direction, J=[[0,-1],[1,0]]:", sp.simplify(sp.expand_trig(Fh - claim)) == 0)
Jt = J.T
Ht = sp.diag(a0*sp.eye(2) + b0*Jt, a1*sp.eye(2) + b1*Jt)
claim_t = sum(a*sp.cos((m-n)*t) + b*sp.sin((m-n)*t) for a, b, t in [(a0, b0, t0), (a1, b1, t1)])
print("if-direction, J^T=[[0,1],[-1,0]] gives + b sin:", sp.simplify(sp.expand_trig((p(m).T*Ht*p(n))[0] - claim_t)) == 0)

# (2) "only if" via the shift step, exactly: write F as a Laurent polynomial in x_i = e^{i m th_i}, y_i = e^{i n th_i}
x0, x1, y0, y1 = sp.symbols('x0 x1 y0 y1')
X = {0: x0, 1: x1}; Y = {0: y0, 1: y1}
def trig_to_xy(k_is_m):
    V = X if k_is_m else Y
    out = []
    for i in range(2):
        out += [(V[i] - 1/V[i])/(2*sp.I), (V[i] + 1/V[i])/2]
    return sp.Matrix(out)
Fxy = sp.expand((trig_to_xy(True).T * Hs * trig_to_xy(False))[0])
poly = sp.Poly(sp.expand(Fxy * x0*x1*y0*y1), x0, x1, y0, y1)
# F(m+1,n+1) - F(m,n) = sum_c coeff * x^a y^b (e^{i(a.th + b.th)} - 1); the characters are independent under the
# hypothesis, and e^{i(alpha+beta)} = 1 only for the monomials x_i^{+-1} y_i^{-+1} (alpha = -beta), so every other
# coefficient must vanish:
eqs = []
for mon, coeff in poly.terms():
    e = [k - 1 for k in mon]     # exponents of x0, x1, y0, y1 (undo the multiplication)
    relative = (e[0] == -e[2] and e[1] == 0 and e[3] == 0 and e[0] != 0) or (e[1] == -e[3] and e[0] == 0 and e[2] == 0 and e[1] != 0)
    if not relative:
        eqs.append(coeff)
sol = sp.solve(eqs, list(Hs), dict=True)[0]
Hsol = Hs.subs(sol)
print("number of independent equations:", sp.Matrix(eqs).jacobian(list(Hs)).rank(), " -> free parameters:", 16 - sp.Matrix(eqs).jacobian(list(Hs)).rank())
sp.pprint(Hsol)
# the shift step itself for the solution and for a counterexample
shift = lambda expr: sp.simplify(sp.expand_trig(expr.subs({m: m+1, n: n+1}, simultaneous=True) - expr))
print("shift invariance of the solution:", shift((p(m).T*Hsol*p(n))[0]) == 0)
# (3) the hypothesis matters: if theta1 = theta0 (so theta0 - theta1 in 2piZ) an off-diagonal scaled rotation block is relative too
Hoff = sp.zeros(4); Hoff[0:2, 2:4] = sp.eye(2)
Foff = (p(m).T*Hoff*p(n))[0]
print("off-diagonal identity block, theta1 = theta0: shift-invariant?", shift(Foff.subs(t1, t0)) == 0,
      "; with theta1 != theta0:", shift(Foff) == 0)
# and if 2 theta0 in 2piZ (theta0 = pi), a diagonal block that is not aI+bJ is still relative:
Hd = sp.diag(1, 2, 0, 0)
print("diag block diag(1,2) with theta0 = pi: shift-invariant?", shift((p(m).T*Hd*p(n))[0].subs(t0, sp.pi)) == 0,
      "; with generic theta0:", shift((p(m).T*Hd*p(n))[0]) == 0)
