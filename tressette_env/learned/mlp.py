"""A trained policy network run in NumPy, and the player that uses it.

Training (``tressette_env.training``, stable-baselines3) exports the policy part of a
MaskablePPO model, the hidden layers and the action head, to an ``.npz`` file: the
weights, the activation and a note of how it was trained. Playing then needs only
NumPy: ``MLPPlayer("model.npz")``, or ``make_player("ppo")`` for the model shipped
with the package.

Example:
    >>> import random
    >>> from tressette_env.engine import new_game, legal_actions, view
    >>> player = MLPPlayer(MLPPolicy.random(hidden=(16,), seed=0))
    >>> state = new_game(seed=0)
    >>> player.act(view(state, state.public.turn), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..encoders.observation import SIZE, encode_bits, unpack
from ..engine.actions import NUM_ACTIONS
from ..engine.state import SeatView

ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


@dataclass
class MLPPolicy:
    """Layers ``(weight (out, in), bias (out,))``: the hidden ones with ``activation``, then the action logits."""

    layers: list[tuple[np.ndarray, np.ndarray]]
    activation: str = "tanh"
    info: dict = field(default_factory=dict)
    """How it was made (the training command, steps, evaluation figures)."""

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation {self.activation!r}: must be one of {', '.join(ACTIVATIONS)}")
        if self.layers[0][0].shape[1] != SIZE or self.layers[-1][0].shape[0] != NUM_ACTIONS:
            raise ValueError(
                f"a policy maps the {SIZE} observation entries to {NUM_ACTIONS} action logits; "
                f"got {self.layers[0][0].shape[1]} -> {self.layers[-1][0].shape[0]}"
            )
        # Transposed float32 copies for fast row-vector products.
        self._matrices = [(np.ascontiguousarray(w.T, dtype=np.float32), b.astype(np.float32)) for w, b in self.layers]
        self._act = ACTIVATIONS[self.activation]

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Action logits for a batch (or one) of observations."""
        h = np.asarray(observations, dtype=np.float32)
        last = len(self._matrices) - 1
        for i, (w, b) in enumerate(self._matrices):
            h = h @ w + b
            if i < last:
                h = self._act(h)
        return h

    def best_actions(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The most likely legal action of each row: ``MLPPlayer(deterministic=True)``'s choice, for a batch.

        A batched ``policy(obs, mask)`` for ``TressetteVectorEnv``'s ``opponent=`` / ``partner=``.
        """
        logits = self.logits(observations)
        return np.where(np.asarray(masks) != 0, logits, -np.inf).argmax(axis=-1)

    def save(self, path: str | Path) -> Path:
        """Write the policy to an ``.npz`` file."""
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        meta = {"activation": self.activation, "layers": len(self.layers), "info": self.info}
        path = Path(path)
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """Read a policy written by ``save``."""
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(meta["layers"])]
        return cls(layers, meta["activation"], meta.get("info", {}))

    @classmethod
    def random(cls, hidden: Sequence[int] = (64, 64), seed: int = 0, activation: str = "tanh") -> MLPPolicy:
        """An untrained policy with small random weights (for tests)."""
        rng = np.random.default_rng(seed)
        sizes = [SIZE, *hidden, NUM_ACTIONS]
        layers = [
            (rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in)).astype(np.float32), np.zeros(n_out, np.float32))
            for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True)
        ]
        return cls(layers, activation)


class MLPPlayer:
    """A ``Player`` that plays a policy network: the best legal action, or one sampled from the policy.

    Args:
        policy: an ``MLPPolicy`` or the path of one saved as ``.npz``.
        deterministic: play the most likely legal action (default) instead of sampling.
        name: the name shown in evaluation tables.
    """

    def __init__(self, policy: MLPPolicy | str | Path, deterministic: bool = True, name: str = "mlp"):
        self.policy = policy if isinstance(policy, MLPPolicy) else MLPPolicy.load(policy)
        self.deterministic = deterministic
        self.name = name

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        logits = self.policy.logits(unpack(encode_bits(view), SIZE))[legal]
        if self.deterministic:
            return legal[int(np.argmax(logits))]
        weights = np.exp(logits - logits.max())
        return rng.choices(legal, weights=weights.tolist())[0]
