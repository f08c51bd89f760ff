"""The random baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from ..engine.state import SeatView


class RandomPlayer:
    """Plays a uniformly random legal action (signals and calling out included when legal)."""

    name = "random"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        return legal[rng.randrange(len(legal))]
