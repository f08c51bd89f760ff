"""Trained policies played with NumPy only (no torch needed to play or evaluate an ``.npz``)."""

from .loading import SHIPPED_MODEL, load_player, policy_from_sb3_zip, shipped_model_path, shipped_player
from .mlp import MLPPlayer, MLPPolicy, ModelFileError

__all__ = [
    "MLPPlayer",
    "MLPPolicy",
    "ModelFileError",
    "SHIPPED_MODEL",
    "load_player",
    "policy_from_sb3_zip",
    "shipped_model_path",
    "shipped_player",
]
