"""Batched Tressette in NumPy: N deals stepped together, and vector environments on top.

| name | what it is |
| --- | --- |
| ``TressetteBatch`` | the rules for N deals at once: reset, masks, observations, step (``engine``) |
| ``StepResult`` | what one batched step did, deal by deal |
| ``TressetteVectorEnv`` | a ``gymnasium.vector.VectorEnv``: one learning seat per deal, batched opponents (``env``) |
| ``RandomPolicy`` | the batched random baseline, ``policy(obs, mask) -> actions`` |
| ``heuristic_actions`` | the batched ``HeuristicPlayer``: its action for the seat on turn in each deal (``heuristic``) |
| ``SB3VecEnv`` | the vector env as a stable-baselines3 ``VecEnv`` (``sb3``; needs stable-baselines3) |
| ``ColMortoBatch`` | Tressette col morto for N deals, on ``TressetteBatch`` (``col_morto``; its batched heuristic too) |
| ``InDueBatch`` | Tressette in due for N deals, both forms (``in_due``) |
| ``APerdereBatch`` | Tressette a perdere for N deals, every switch (``a_perdere``) |
| ``FamilyVectorEnv`` | one learning player per deal of any game with a batched engine (``family_env``; ``gym.make_vec``'s) |

Depends on numpy and gymnasium only; stable-baselines3 is imported by ``SB3VecEnv`` alone.
"""

from typing import Any

from .a_perdere import APerdereBatch
from .col_morto import ColMortoBatch
from .engine import StepResult, TressetteBatch, sample_mask, select_bit
from .env import BatchedPolicy, RandomPolicy, TressetteVectorEnv
from .family_env import FamilyVectorEnv
from .heuristic import heuristic_actions
from .in_due import InDueBatch

__all__ = [
    "APerdereBatch",
    "BatchedPolicy",
    "ColMortoBatch",
    "FamilyVectorEnv",
    "InDueBatch",
    "RandomPolicy",
    "SB3VecEnv",
    "StepResult",
    "TressetteBatch",
    "TressetteVectorEnv",
    "heuristic_actions",
    "sample_mask",
    "select_bit",
]


def __getattr__(name: str) -> Any:
    if name == "SB3VecEnv":  # imports stable-baselines3, so only when asked for
        from .sb3 import SB3VecEnv

        return SB3VecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
