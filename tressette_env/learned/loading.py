"""Players from trained models: the shipped one, a NumPy policy (``.npz``), an SB3 checkpoint (``.zip``)."""

from __future__ import annotations

from pathlib import Path

from .mlp import MLPPlayer, MLPPolicy

SHIPPED_MODEL = "ppo_v0.npz"
"""The file, in ``tressette_env/models``, that the player name ``ppo`` loads."""


def shipped_model_path() -> Path:
    """The path of the model shipped with the package."""
    return Path(__file__).resolve().parent.parent / "models" / SHIPPED_MODEL


def shipped_player(deterministic: bool = True) -> MLPPlayer:
    """The player ``ppo``: the MaskablePPO model shipped with the package, played in NumPy."""
    path = shipped_model_path()
    if not path.exists():
        raise ValueError(f"the shipped model is missing from this installation ({path})")
    return MLPPlayer(path, deterministic=deterministic, name="ppo")


def load_player(path: str | Path, deterministic: bool = True) -> MLPPlayer:
    """A player from a saved model: ``.npz`` (an ``MLPPolicy``) or ``.zip`` (an SB3 MaskablePPO checkpoint).

    Raises:
        ValueError: the file is missing or of another kind.
        ImportError: a ``.zip`` checkpoint without the training extras installed.
    """
    path = Path(path)
    if not path.exists():
        raise ValueError(f"no model at {path}")
    if path.suffix == ".npz":
        return MLPPlayer(MLPPolicy.load(path), deterministic=deterministic, name=path.stem)
    if path.suffix == ".zip":
        try:
            from sb3_contrib import MaskablePPO

            from ..training.export import policy_from_sb3
        except ImportError as error:
            raise ImportError(
                f'loading {path} needs the training extras: pip install "tressette-env[train]"'
            ) from error
        model = MaskablePPO.load(path, device="cpu")
        return MLPPlayer(policy_from_sb3(model), deterministic=deterministic, name=path.stem)
    raise ValueError(f"{path}: a model is a .npz policy or a .zip SB3 checkpoint")
