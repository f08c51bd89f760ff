"""Training with stable-baselines3 / sb3-contrib.

Needs the training extras: ``pip install -e ".[train]"`` from a clone, or ``pip install "tressette-env[train]"``.
"""

from .train import TrainConfig, TrainResult, train

__all__ = ["TrainConfig", "TrainResult", "train"]
