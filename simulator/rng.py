"""Counter-based random streams: splitmix64, one ``uint64`` state per stream.

A game is a pure function of (root seed, game index, settings): every stream of game ``i`` is
seeded from ``(root, i, stream)`` alone, so results do not depend on threads, chunking or order.
Streams are separate for the tile layout, the dice and each seat's strategy noise, which gives
common random numbers when two strategies or rule variants are compared.
"""
import numpy as np

from simulator.jit import hot

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@hot
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@hot
def seed_streams(rng, root, game):
    """Fill ``rng`` (one uint64 per stream) from (root seed, game index)."""
    base = mix64(np.uint64(root) * _GOLDEN + np.uint64(0x632BE59BD9B4E019))
    base = mix64(base ^ (np.uint64(game) * _M2 + _GOLDEN))
    for k in range(rng.shape[0]):
        rng[k] = mix64(base ^ (np.uint64(k + 1) * _M1))


@hot
def next_u64(rng, k):
    z = rng[k] + _GOLDEN
    rng[k] = z
    return mix64(z)


@hot
def randint(rng, k, n):
    """Uniform integer in ``[0, n)`` from stream ``k`` (exact for n <= 2**11)."""
    return np.int64(((next_u64(rng, k) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))


@hot
def uniform(rng, k):
    """Uniform float in ``[0, 1)`` from stream ``k``."""
    return np.float64(next_u64(rng, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
