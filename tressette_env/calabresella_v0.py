"""Calabresella (Terziglio): three players, an auction, a called card, the monte, one against two (version 0).

Example:
    >>> from tressette_env import calabresella_v0
    >>> env = calabresella_v0.env()
    >>> env.possible_agents
    ['player_0', 'player_1', 'player_2']
"""

from .engine.game import IllegalActionError
from .envs.calabresella_aec import env, parallel_env, raw_env
from .envs.playing import RenuncioWarning
from .games.calabresella import CalabresellaRules

__all__ = ["CalabresellaRules", "IllegalActionError", "RenuncioWarning", "env", "parallel_env", "raw_env"]
