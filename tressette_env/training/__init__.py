"""Training with stable-baselines3 / sb3-contrib (``pip install "tressette-env[train]"``)."""

from .train import TrainConfig, TrainResult, train

__all__ = ["TrainConfig", "TrainResult", "train"]
