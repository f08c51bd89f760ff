"""A game of the family as the environments see it: its rules, its observation, its state vector.

``GameSpec`` ties an engine ``Game`` (standard library only) to what the RL layer needs:
the PettingZoo name, the rule-switch constructor, the ``Observation`` and ``StateEncoder``
for a rule set. ``SPECS`` lists every game of the package; the environments, the single-agent
Gymnasium environment, the evaluation and the command line all look games up here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


# name -> "module:attribute" of its GameSpec, imported on first use.
_SPECS = {
    "tressette": "tressette_env.envs.tressette_aec:SPEC",
    "tressette_in_due": "tressette_env.envs.in_due_aec:SPEC",
    "tressette_col_morto": "tressette_env.envs.col_morto_aec:SPEC",
    "tressette_a_perdere": "tressette_env.envs.a_perdere_aec:SPEC",
    "calabresella": "tressette_env.envs.calabresella_aec:SPEC",
    "tressette_a_chiamare": "tressette_env.envs.a_chiamare_aec:SPEC",
}
GAME_NAMES: tuple[str, ...] = tuple(_SPECS)


def game_spec(name: str) -> GameSpec:
    """The ``GameSpec`` of a game by name (``tressette``, ``tressette_in_due``, ``tressette_col_morto``...)."""
    if name not in _SPECS:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(_SPECS)}")
    module, _, attribute = _SPECS[name].partition(":")
    return getattr(importlib.import_module(module), attribute)
