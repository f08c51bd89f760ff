"""Tressette, four seats in two partnerships, as a PettingZoo AEC environment (version 0).

Example:
    >>> from tressette_env import tressette_v0
    >>> env = tressette_v0.env(episode="match", target_score=31)
"""

from .engine.game import IllegalActionError
from .envs.playing import RenuncioWarning
from .envs.tressette_aec import AGENTS, env, parallel_env, raw_env

__all__ = ["AGENTS", "IllegalActionError", "RenuncioWarning", "env", "parallel_env", "raw_env"]
