"""A game of the family as the environments see it: its rules, its observation, its state vector.

``GameSpec`` ties an engine ``Game`` (standard library only) to what the RL layer needs:
the PettingZoo name, the rule-switch constructor, the ``Observation`` and ``StateEncoder``
for a rule set. ``game_spec(name)`` makes it from the game's entry in ``tressette_env.catalog``;
the environments, the single-agent Gymnasium environment, the evaluation and the command line
all look games up here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import catalog
from ..encoders.global_state import StateEncoder
from ..encoders.history import choose
from ..encoders.observation import Observation


@dataclass(frozen=True)
class GameSpec:
    """One game of the family for the environments."""

    name: str
    """The game's name, as ``tressette eval --game`` takes it (``"tressette_in_due"``)."""
    env_name: str
    """The PettingZoo environment's name (``"tressette_in_due_v0"``)."""
    make_rules: Callable[..., Any]
    """Keyword rule switches -> the game's rules record (a TypeError names an unknown switch)."""
    observation: Callable[[Any], Observation]
    """Rules -> the observation of a seat."""
    state: Callable[[Any], StateEncoder]
    """Rules -> ``env.state()``'s vector."""
    gym_id: str
    """The id of the single-agent Gymnasium environment."""
    pettingzoo_id: str
    """The id in PettingZoo's registry."""

    def observation_for(self, rules: Any, history: bool = False) -> Any:
        """The observation of a seat under ``rules``: the default one, or (``history=True``) the history observation.

        Raises:
            TypeError: ``history`` is not a bool.
        """
        return choose(self.observation(rules), history)

    def agent_names(self, rules: Any) -> tuple[str, ...]:
        """``player_0`` .. ``player_{n-1}``."""
        return tuple(f"player_{i}" for i in range(rules.game.agents(rules)))


_SPECS: dict[str, GameSpec] = {}


def game_spec(name: str) -> GameSpec:
    """The ``GameSpec`` of a game by name (``tressette``, ``tressette_in_due``, ...), made from its catalog entry.

    Raises:
        ValueError: no game of the catalog has that name.
    """
    spec = _SPECS.get(name) if isinstance(name, str) else None
    if spec is None:
        found = catalog.entry(name)
        spec = _SPECS[name] = GameSpec(
            name=found.name,
            env_name=found.env_name,
            make_rules=found.make_rules,
            observation=found.observation,
            state=found.state_encoder,
            gym_id=found.gym_id,
            pettingzoo_id=found.pettingzoo_id,
        )
    return spec


def __getattr__(name: str) -> Any:
    """``GAME_NAMES``: the games' names, read from the catalog when asked (a game registered later is in it)."""
    if name == "GAME_NAMES":
        return catalog.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
