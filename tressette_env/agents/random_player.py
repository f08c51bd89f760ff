"""The random baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from ..engine.draws import below
from ..engine.state import SeatView


class RandomPlayer:
    """Plays a uniformly random legal action (signals and calling out included when legal).

    Its draw is ``rng.randrange`` of the number of legal actions (``engine.draws.below``, the same draw).
    """

    name = "random"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        return legal[below(rng, len(legal))]

    def act_mask(self, legal: int, rng: random.Random) -> int:
        """``act`` from the legal actions as a bit mask (bit a: action a): the same draw, the k-th set bit."""
        k = below(rng, legal.bit_count())
        for _ in range(k):
            legal &= legal - 1  # drop the lowest legal action
        return (legal & -legal).bit_length() - 1
