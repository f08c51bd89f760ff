"""Trained policies played with NumPy only (no torch needed to play or evaluate them)."""

from .loading import SHIPPED_MODEL, load_player, shipped_model_path, shipped_player
from .mlp import MLPPlayer, MLPPolicy

__all__ = ["MLPPlayer", "MLPPolicy", "SHIPPED_MODEL", "load_player", "shipped_model_path", "shipped_player"]
