"""The random draws of a deal and of the random player: ``random.Random``'s own, written out.

| function | the same draws as | what it saves |
| --- | --- | --- |
| ``shuffle(rng, items)`` | ``rng.shuffle(items)`` | a Python call of ``_randbelow`` for every card (40 cards: 3.5 µs of 6.6) |
| ``below(rng, n)`` | ``rng.randrange(n)`` | ``randrange``'s argument checks and a call (0.11 µs a draw against 0.17) |

Every deal of every game shuffles its deck, and the random player draws an action at every
decision of the other seats of a single-learner environment: both are on the hot path of
``reset`` and of ``gym.make``'s step. For a ``random.Random`` itself these functions take the
same ``getrandbits`` calls in the same order as CPython's ``Random.shuffle`` and
``Random.randrange`` (its ``_randbelow_with_getrandbits``, the same in 3.10 to 3.13), so a seed
deals the same cards and leaves the generator in the same state
(``tests/engine/test_draws.py`` compares both over thousands of seeds and sizes). Any other
generator (a subclass, ``SystemRandom``, OpenSpiel's chance outcomes in
``integrations.openspiel``) gets its own ``shuffle`` and ``randrange``; a ``shuffle`` or
``randrange`` patched onto one ``random.Random`` object (a test's mock) is not asked: patch
``engine.draws`` instead.
"""

from __future__ import annotations

import random

__all__ = ["below", "shuffle"]

_Random = random.Random


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle ``items`` in place: ``rng.shuffle(items)``, the same draws (the module docstring)."""
    if type(rng) is not _Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):  # Fisher-Yates from the end, as Random.shuffle
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:  # (Random._randbelow_with_getrandbits: draw again until below n)
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, n: int) -> int:
    """A uniform draw from ``0..n-1``: ``rng.randrange(n)``, the same draws (the module docstring)."""
    if type(rng) is not _Random or type(n) is not int or n <= 0:
        return rng.randrange(n)  # (its own error for an empty range)
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j
