"""Tressette a perdere (Traversone), three to eight players each for himself, as a PettingZoo AEC environment (version 0).

Example:
    >>> from tressette_env import tressette_a_perdere_v0
    >>> env = tressette_a_perdere_v0.env(players=5)
    >>> env.possible_agents
    ['player_0', 'player_1', 'player_2', 'player_3', 'player_4']
"""

from .engine.game import IllegalActionError
from .envs.a_perdere_aec import env, parallel_env, raw_env
from .envs.playing import RenuncioWarning
from .games.a_perdere import APerdereRules

__all__ = ["APerdereRules", "IllegalActionError", "RenuncioWarning", "env", "parallel_env", "raw_env"]
