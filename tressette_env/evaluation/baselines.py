"""One player against named baselines, each on the same duplicate boards: the learner's report card.

Example:
    >>> from tressette_env.agents import HeuristicPlayer
    >>> results = against_baselines(HeuristicPlayer(), ["random"], boards=10, seed=0, workers=1, progress=False)
    >>> [r.players for r in results]
    [('heuristic', 'random')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agents.base import Player
from ..agents.registry import make_player
from ..engine.rules import Rules
from .duplicate import DuplicateResult, duplicate


def against_baselines(
    player: Player, baselines: Sequence[str], boards: int, seed: int, rules: Rules | None = None, **options: Any
) -> list[DuplicateResult]:
    """``duplicate(player, make_player(b), boards, seed, rules, ...)`` for each baseline name ``b``, in order.

    The results name the players ``(player.name, b)``; ``options`` go to ``duplicate``
    (``workers``, ``progress``).
    """
    name = getattr(player, "name", type(player).__name__)
    return [duplicate(player, make_player(b), boards, seed, rules, names=(name, b), **options) for b in baselines]
