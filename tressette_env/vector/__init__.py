"""Batched Tressette in NumPy: N deals stepped together, and vector environments on top.

| name | what it is |
| --- | --- |
| ``TressetteBatch`` | the rules for N deals at once: reset, masks, observations, step (``engine``) |
| ``StepResult`` | what one batched step did, deal by deal |
| ``TressetteVectorEnv`` | a ``gymnasium.vector.VectorEnv``: one learning seat per deal, batched opponents (``env``) |
| ``RandomPolicy`` | the batched random baseline, ``policy(obs, mask) -> actions`` |
| ``heuristic_actions`` | the batched ``HeuristicPlayer``: its action for the seat on turn in each deal (``heuristic``) |
| ``SB3VecEnv`` | the vector env as a stable-baselines3 ``VecEnv`` (``sb3``; needs stable-baselines3) |
| ``FamilyVectorEnv`` | one learning player per deal of any game with a batched engine (``family_env``; ``gym.make_vec``'s) |

Each other game's batched engine lives in its own module and is named by its catalog entry
(``Entry.batch``, ``catalog.entry(name).batch_type()``): ``vector.col_morto.ColMortoBatch`` (with
its batched heuristic), ``vector.in_due.InDueBatch`` (its heuristic in ``vector.in_due_heuristic``),
``vector.a_perdere.APerdereBatch`` (its heuristic in ``vector.a_perdere_heuristic``),
``vector.a_chiamare.AChiamareBatch`` (its heuristic in ``vector.a_chiamare_heuristic``),
``vector.calabresella.CalabresellaBatch`` (its heuristic in ``vector.calabresella_heuristic``);
what they share lives in ``vector._family``, ``vector._tricks`` and ``vector._side_play``.

Depends on numpy and gymnasium only; stable-baselines3 is imported by ``SB3VecEnv`` alone.
"""

from typing import Any

from ..messages import shown
from .engine import StepResult, TressetteBatch, sample_mask, select_bit
from .env import BatchedPolicy, RandomPolicy, TressetteVectorEnv
from .family_env import FamilyVectorEnv
from .heuristic import heuristic_actions

__all__ = [
    "BatchedPolicy",
    "FamilyVectorEnv",
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
    raise AttributeError(f"module {shown(__name__)} has no attribute {shown(name)}")
