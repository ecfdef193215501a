"""Independent reference figures for experiments/src/stats.rs (SPRT log-likelihood ratios).

The generalised LLR of pentanomial counts is N * sum_i phat_i ln(p1_i / p0_i), where
p_k is the distribution on the pair scores 0, 1/4, 1/2, 3/4, 1 that maximises the
likelihood sum_i phat_i ln p_i subject to a constraint:
  logistic:   its mean equals L(elo_k) = 1 / (1 + 10^(-elo_k / 400));
  normalised: its t-value (mean - 1/2) / sd equals sqrt(2) * nelo_k / (800 / ln 10).
Zero counts are replaced by 1e-3 first (as fishtest does). Here the constrained maxima
are found by a general-purpose optimiser (SLSQP over the probabilities), a different
method from the secular-equation solution stats.rs uses, so agreement checks both.

Run: python3 sprt_reference.py   (needs numpy and scipy)
"""
import math

import numpy as np
from scipy.optimize import minimize

X = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def regularised(counts):
    c = np.array([v if v > 0 else 1e-3 for v in counts], dtype=float)
    return c.sum(), c / c.sum()


def constrained_mle(phat, constraint):
    res = minimize(
        lambda p: -np.dot(phat, np.log(p)),
        phat.copy(),
        jac=lambda p: -phat / p,
        method="SLSQP",
        bounds=[(1e-12, 1.0)] * len(phat),
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1.0},
            {"type": "eq", "fun": constraint},
        ],
        options={"ftol": 1e-16, "maxiter": 2000},
    )
    assert res.success, res.message
    p = res.x / res.x.sum()
    assert abs(constraint(p)) < 1e-9, constraint(p)
    return p


def llr(counts, c0, c1):
    n, phat = regularised(counts)
    p0 = constrained_mle(phat, c0)
    p1 = constrained_mle(phat, c1)
    return n * float(np.dot(phat, np.log(p1) - np.log(p0)))


def logistic(elo0, elo1, counts):
    def mean_is(elo):
        s = 1 / (1 + 10 ** (-elo / 400))
        return lambda p: float(np.dot(p, X)) - s

    return llr(counts, mean_is(elo0), mean_is(elo1))


def normalized(nelo0, nelo1, counts):
    def t_is(nelo):
        t = math.sqrt(2) * nelo / (800 / math.log(10))

        def c(p):
            mu = float(np.dot(p, X))
            sd = math.sqrt(float(np.dot(p, (X - mu) ** 2)))
            return (mu - 0.5) / sd - t

        return c

    return llr(counts, t_is(nelo0), t_is(nelo1))


CASES = [
    ([0, 1, 10, 32, 47], 0, 10),
    ([1, 2, 4, 2, 1], 0, 10),
    ([0, 0, 10, 20, 10], 0, 100),
    ([30, 120, 400, 150, 40], 0, 5),
    ([5, 60, 200, 80, 10], -3, 1),
    ([12, 40, 90, 35, 20], 0, 2),
]

if __name__ == "__main__":
    for counts, e0, e1 in CASES:
        print(counts, e0, e1, "logistic %.9f" % logistic(e0, e1, counts),
              "normalized %.9f" % normalized(e0, e1, counts))
