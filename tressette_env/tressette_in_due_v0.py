"""Tressette in due, two players with a stock or packets, as a PettingZoo AEC environment (version 0).

Example:
    >>> from tressette_env import tressette_in_due_v0
    >>> env = tressette_in_due_v0.env(deal="packets")
    >>> env.reset(seed=0)
    >>> env.agent_selection in env.agents
    True
"""

from .engine.game import IllegalActionError
from .envs.in_due_aec import env, parallel_env, raw_env
from .envs.playing import RenuncioWarning
from .games.in_due import InDueRules

AGENTS = ("player_0", "player_1")

__all__ = ["AGENTS", "IllegalActionError", "InDueRules", "RenuncioWarning", "env", "parallel_env", "raw_env"]
