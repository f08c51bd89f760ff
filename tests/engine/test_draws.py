"""``engine.draws`` draws what ``random.Random`` draws, and leaves the generator in the same state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.engine.draws import below, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 10, 20, 33, 40, 64, 65, 200])
def test_shuffle_is_random_shuffle(size):
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=60))
@settings(max_examples=300, deadline=None)
def test_shuffle_is_random_shuffle_property(seed, items):
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(items), list(items)
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b and ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**64), st.lists(st.integers(1, 2**70), min_size=1, max_size=40))
@settings(max_examples=300, deadline=None)
def test_below_is_randrange(seed, sizes):
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # (randrange of a float, before Python 3.12)
def test_below_refuses_what_randrange_refuses():
    for bad in (0, -3, 2.5):
        with pytest.raises((ValueError, TypeError)) as theirs:
            random.Random(0).randrange(bad)
        with pytest.raises(theirs.type, match=str(theirs.value)):
            below(random.Random(0), bad)


class _Counting(random.Random):
    """A generator of its own (as ``integrations.openspiel``'s chance outcomes are): its own methods are asked."""

    def __init__(self, seed):
        super().__init__(seed)
        self.asked = []

    def shuffle(self, x):
        self.asked.append("shuffle")
        x.reverse()

    def randrange(self, start, stop=None, step=1):
        self.asked.append("randrange")
        return start - 1


def test_other_generators_use_their_own_methods():
    rng = _Counting(0)
    items = [1, 2, 3]
    shuffle(rng, items)
    assert items == [3, 2, 1] and below(rng, 5) == 4 and rng.asked == ["shuffle", "randrange"]
