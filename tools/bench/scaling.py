"""How compile time grows with input size: one kernel copied 1x, 10x and 100x into one module.

The check: t(100x) / t(10x) <= 1.5 * (100 log 100) / (10 log 10) = 30, i.e. growth no faster than
n log n with 50% slack for noise. 1x is reported but not used in the check: there, process start-up
dominates. The exponent k of t ~ n^k is fitted by least squares over all three sizes and also
given between 10x and 100x.
"""
import math

SLACK = 1.5


def bound(n_small, n_large):
    return SLACK * (n_large * math.log(n_large)) / (n_small * math.log(n_small))


def exponent(points):
    """Least-squares slope of log t against log n."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den


def verdict(points):
    """points: [(copies, seconds)] for 1, 10, 100 copies. Returns (ratio, bound, passed, k_fit, k_10_100)."""
    t = dict(points)
    ratio = t[100] / t[10]
    b = bound(10, 100)
    k_pair = math.log(ratio) / math.log(10)
    return ratio, b, ratio <= b, exponent(points), k_pair
