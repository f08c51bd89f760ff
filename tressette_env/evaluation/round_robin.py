"""A round robin: every pair of a set of players, each on the same duplicate boards."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ..agents.base import Player
from ..engine.rules import Rules
from .duplicate import DuplicateResult, duplicate


def round_robin(
    players: Mapping[str, Player],
    boards: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    record: bool = False,
    journal: Any = None,
) -> list[DuplicateResult]:
    """Every pair (A, B) in the order given, A before B, each on the same ``boards`` boards.

    ``record`` and ``journal``: see ``duplicate`` (one journal file holds every pair's boards).
    """
    if len(players) < 2:
        raise ValueError(f"a round robin needs at least 2 players; got {list(players)}")
    return [
        duplicate(
            players[a], players[b], boards, seed, rules, workers, progress, names=(a, b), record=record, journal=journal
        )
        for a, b in combinations(players, 2)
    ]
