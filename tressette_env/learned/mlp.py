"""A trained policy network run in NumPy, and the player that uses it.

Training (``tressette_env.training``, stable-baselines3) exports the policy part of a
MaskablePPO model, the hidden layers and the action head, to an ``.npz`` file: the
weights, the activation and a note of how it was trained. Playing then needs only
NumPy: ``MLPPlayer("model.npz")``, or ``make_player("ppo")`` for the model shipped
with the package. ``MLPPolicy.load`` reads arrays and a JSON string only (no pickle) and
checks every layer; a file that is not such a policy raises ``ModelFileError``. What a file
may claim (layers, widths, sizes) is bounded, and checked before anything is allocated
(``tressette_env.learned.files``); every policy keeps to the same bounds, so what ``save``
writes, ``load`` reads.

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
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..engine.actions import FAMILY_NUM_ACTIONS, NUM_ACTIONS
from ..engine.state import SeatView
from ..messages import cut, listed, reason, shown
from .files import (
    MAX_JSON_BYTES,
    MAX_LAYERS,
    MAX_PARAMETERS,
    MAX_WIDTH,
    ModelFileError,
    checked_file_size,
    checked_zip,
    npy_array,
    npy_header,
)

ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def _entry_header(path: Path, archive, name: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype the ``.npz`` entry ``name`` declares; an object array (a pickle) is refused unread."""
    shape, dtype = npy_header(archive, f"{name}.npy")
    if dtype.hasobject:
        raise ModelFileError(path, f"entry {name!r} holds pickled objects, refused unread (a policy is numbers)")
    return shape, dtype


OBSERVATIONS = ("default", "history")
"""What a policy's input is: the default observation, or the history observation (``encoders.history``)."""


def family_shapes(history: bool = False) -> dict[tuple[int, int], str]:
    """(observation entries, actions) -> the game whose policies have those input and output sizes.

    Each game of the catalog, in each of its ``forms`` (the form named when the forms' sizes differ).

    ``history``: the sizes of the history observation (``observation_of(rules, history=True)``).
    """
    from ..catalog import names

    return _shapes(history, names())


@lru_cache(maxsize=4)
def _shapes(history: bool, games: tuple[str, ...]) -> dict[tuple[int, int], str]:
    """``family_shapes`` of these games (the catalog's names: a game registered later makes a new key)."""
    from ..catalog import entry
    from ..encoders.family import observation_of

    shapes: dict[tuple[int, int], str] = {}
    for game in map(entry, games):
        sizes = [
            (label, (observation_of(rules, history).size, rules.game.num_actions)) for label, rules in game.form_rules()
        ]
        one_size = len({shape for _, shape in sizes}) == 1
        for label, shape in sizes:
            shapes.setdefault(shape, game.name if one_size or not label else f"{game.name} ({label})")
    return shapes


def _layer_problem(i: int, name: str, shape: tuple[int, ...], dtype: np.dtype) -> str | None:
    """What is wrong with layer ``i``'s ``name`` (``"weight"`` or ``"bias"``) of this shape and dtype, or None.

    Asked of a policy's arrays, and of an ``.npz``'s entries from their headers, before their data is read.
    """
    ndim = 2 if name == "weight" else 1
    if dtype.kind not in "fiu":
        return f"layer {i}: the {name} holds {cut(str(dtype))} values, not numbers"
    if len(shape) != ndim:
        return f"layer {i}: the {name} must have {ndim} dimension(s), has shape {shown(tuple(shape))}"
    if not all(1 <= n <= MAX_WIDTH for n in shape):
        return f"layer {i}: the {name} has shape {shown(tuple(shape))}: every width is from 1 to {MAX_WIDTH}"
    return None


def _too_many_parameters(count: int) -> str:
    """The error for a policy of ``count`` numbers or more, past ``MAX_PARAMETERS``."""
    return f"its layers hold {count} numbers or more: a policy has at most {MAX_PARAMETERS}"


def _checked_layers(layers, history: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """``layers`` as float arrays, after checking that every layer feeds the next: a bad file fails here, not in play.

    The first layer takes a game's observation and the last gives its action logits: the
    four-seat game's 790 entries (1460 with ``history``) and 161 actions, or a family game's 255 actions from an
    observation whose size depends on the game's switches (checked when it plays, by
    ``MLPPlayer.check_game``; ``family_shapes`` names the games of the usual sizes). A policy has
    at most ``MAX_LAYERS`` layers, widths from 1 to ``MAX_WIDTH`` and at most ``MAX_PARAMETERS``
    numbers (``tressette_env.learned.files`` says why).
    """
    if not isinstance(layers, (list, tuple)) or not layers:
        raise ValueError("a policy has at least one layer (weight, bias)")
    if len(layers) > MAX_LAYERS:
        raise ValueError(f"{len(layers)} layers: a policy has at most {MAX_LAYERS}")
    checked = []
    arrays = []
    parameters = 0
    for i, layer in enumerate(layers):
        if not isinstance(layer, (list, tuple)) or len(layer) != 2:
            raise ValueError(f"layer {i}: must be a pair (weight, bias)")
        w, b = (np.asarray(a) for a in layer)
        for name, array in (("weight", w), ("bias", b)):
            problem = _layer_problem(i, name, array.shape, array.dtype)
            if problem:
                raise ValueError(problem)
            parameters += array.size
            if parameters > MAX_PARAMETERS:
                raise ValueError(_too_many_parameters(parameters))
            if not np.isfinite(array).all():
                raise ValueError(f"layer {i}: the {name} holds NaN or infinite values")
            if array.dtype.kind == "f" and array.dtype.itemsize > 4 and np.abs(array).max() > np.finfo(np.float32).max:
                raise ValueError(  # (float64's 1e300 loaded, then played every logit NaN: the policy runs in float32)
                    f"layer {i}: the {name} holds values past float32's range (about ±3.4e38), in which the policy runs"
                )
        arrays.append((w, b))
    shapes = family_shapes(history)
    size, actions = arrays[0][0].shape[1], arrays[-1][0].shape[0]
    if (size, actions) not in shapes and actions != FAMILY_NUM_ACTIONS:
        # name the four-seat game's shapes in the errors below
        size, actions = next(shape for shape, game in shapes.items() if game == "tressette")
    # A family game's observation size depends on its switches (players, signals, episode...):
    # its policy's input size is checked against the game when it plays (``MLPPlayer.check_game``).
    expected_in = size
    for i, (w, b) in enumerate(arrays):
        if w.shape[1] != expected_in:
            source = f"the {size} observation entries" if i == 0 else f"layer {i - 1}'s {expected_in} outputs"
            raise ValueError(
                f"layer {i}: weight of shape {w.shape} takes {w.shape[1]} inputs, but it is fed {source}"
                + (f" (a policy maps the {size} observation entries to {actions} action logits)" if i == 0 else "")
            )
        if b.shape[0] != w.shape[0]:
            raise ValueError(f"layer {i}: bias of {b.shape[0]} entries for a weight of {w.shape[0]} outputs")
        checked.append((w, b))
        expected_in = w.shape[0]
    if expected_in != actions:
        raise ValueError(
            f"the last layer gives {expected_in} outputs: a policy maps the {size} observation entries "
            f"to {actions} action logits"
        )
    return checked


@dataclass
class MLPPolicy:
    """Layers ``(weight (out, in), bias (out,))``: the hidden ones with ``activation``, then the action logits.

    Every layer is checked when the policy is made (numbers, finite, each one's inputs the
    previous one's outputs; the four-seat game's 790 observation entries in and 161 logits out, or
    a family game's 255 logits, see ``_checked_layers``), so a bad model
    fails with a ``ValueError`` that names the layer, before any game, not in the middle of one.
    """

    layers: list[tuple[np.ndarray, np.ndarray]]
    activation: str = "tanh"
    info: dict = field(default_factory=dict)
    """How it was made (the training command, steps, evaluation figures)."""
    observation: str = "default"
    """Its input: ``"default"``, the default observation, or ``"history"``, the history observation."""

    def __post_init__(self) -> None:
        if not isinstance(self.activation, str) or self.activation not in ACTIVATIONS:
            raise ValueError(f"activation {shown(self.activation)}: must be one of {', '.join(ACTIVATIONS)}")
        if not isinstance(self.observation, str) or self.observation not in OBSERVATIONS:
            raise ValueError(f"observation {shown(self.observation)}: must be one of {', '.join(OBSERVATIONS)}")
        self.layers = _checked_layers(self.layers, self.observation == "history")
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
        """Write the policy to an ``.npz`` file, which ``load`` reads back.

        Raises:
            ValueError: ``info`` is too long to be read back (``MAX_JSON_BYTES``: a million characters as JSON).
        """
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        meta = {"activation": self.activation, "layers": len(self.layers), "info": self.info}
        meta["observation"] = self.observation
        text = json.dumps(meta)
        if len(text) > MAX_JSON_BYTES // 4:  # NumPy stores 4 bytes a character
            raise ValueError(
                f"its info has {len(text)} characters as JSON: a model file holds at most {MAX_JSON_BYTES // 4}"
            )
        path = Path(path)
        np.savez_compressed(path, meta=np.array(text), **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """Read a policy written by ``save``, checking every entry before it is used.

        Only arrays and a JSON string are read (``allow_pickle=False``): a file cannot run code.
        What the file claims (its size, its members, the number of layers, each entry's shape
        and type) is checked against the bounds of ``tressette_env.learned.files`` before
        anything it claims is allocated: a file that claims a billion layers, or an entry of a
        billion numbers, is refused at once, unread.

        Raises:
            ModelFileError: the file is not such a policy (it says which entry is wrong and how).
        """
        path = Path(path)
        try:
            stream = open(path, "rb")  # closed by the with below, which cannot word an OSError of its own
        except OSError as error:
            raise ModelFileError(path, f"cannot be read ({reason(error)})") from None
        with stream:
            try:
                checked_file_size(path, stream)
                head = stream.read(4)
            except OSError as error:
                raise ModelFileError(path, f"cannot be read ({reason(error)})") from None
            if head != b"PK\x03\x04":  # not a zip: no use asking NumPy, which takes anything else for a pickle
                raise ModelFileError(
                    path, "an empty file" if not head else "not an .npz archive (it does not start as a zip)"
                )
            try:
                archive = checked_zip(path, stream)
            except ModelFileError:
                raise
            except Exception as error:  # BadZipFile, EOFError, OSError, ValueError: all "unreadable"
                raise ModelFileError(path, f"not a readable .npz archive ({reason(error)})") from None
            try:
                with archive:
                    return cls._from_archive(path, archive)
            except ModelFileError:
                raise
            except Exception as error:  # a damaged member (CRC, truncated entry, bad header) surfaces while reading it
                raise ModelFileError(path, f"a damaged entry ({reason(error)})") from None

    @classmethod
    def _from_archive(cls, path: Path, archive) -> MLPPolicy:
        """The policy in the ``.npz`` ``archive``: every claim checked against the bounds, then the data read."""
        names = set(archive.namelist())
        if "meta.npy" not in names:
            raise ModelFileError(path, "no 'meta' entry (a policy file holds meta, w0, b0, w1, b1, ...)")
        shape, dtype = _entry_header(path, archive, "meta")
        if shape != () or dtype.kind != "U":
            raise ModelFileError(path, "'meta' must be one JSON string")
        if dtype.itemsize > MAX_JSON_BYTES:
            raise ModelFileError(
                path, f"'meta' holds {dtype.itemsize // 4} characters: at most {MAX_JSON_BYTES // 4} (a note in JSON)"
            )
        try:
            meta = json.loads(str(npy_array(archive, "meta.npy")))
        except (ValueError, RecursionError) as error:
            raise ModelFileError(path, f"'meta' is not JSON ({reason(error)})") from None
        if not isinstance(meta, dict):
            raise ModelFileError(path, "'meta' must be a JSON object with 'layers' and 'activation'")
        count, activation, info = meta.get("layers"), meta.get("activation", "tanh"), meta.get("info", {})
        observation = meta.get("observation", "default")  # files written before the history observation: default
        if not isinstance(observation, str) or observation not in OBSERVATIONS:
            raise ModelFileError(
                path, f"meta 'observation'={shown(observation)}: must be one of {', '.join(OBSERVATIONS)}"
            )
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_LAYERS:
            raise ModelFileError(path, f"meta 'layers'={shown(count)}: must be an integer from 1 to {MAX_LAYERS}")
        if not isinstance(info, dict):
            raise ModelFileError(path, "meta 'info' must be a JSON object")
        entries = [(i, kind, f"{kind[0]}{i}") for i in range(count) for kind in ("weight", "bias")]
        missing = [name for _, _, name in entries if f"{name}.npy" not in names]
        if missing:
            raise ModelFileError(path, f"meta says {count} layers but entries {listed(missing)} are missing")
        parameters = 0
        for i, kind, name in entries:  # every header first: no data is read while a bound may still refuse the file
            shape, dtype = _entry_header(path, archive, name)
            problem = _layer_problem(i, kind, shape, dtype)
            if problem:
                raise ModelFileError(path, problem)
            parameters += math.prod(shape)
            if parameters > MAX_PARAMETERS:
                raise ModelFileError(path, _too_many_parameters(parameters))
        layers = [(npy_array(archive, f"w{i}.npy"), npy_array(archive, f"b{i}.npy")) for i in range(count)]
        try:
            return cls(layers, activation, info, observation)
        except ValueError as error:
            raise ModelFileError(path, str(error)) from None

    @classmethod
    def random(
        cls, hidden: Sequence[int] = (64, 64), seed: int = 0, activation: str = "tanh", observation: str = "default"
    ) -> MLPPolicy:
        """An untrained four-seat policy with small random weights (for tests), over ``observation``'s entries."""
        rng = np.random.default_rng(seed)
        inputs = next(
            shape[0] for shape, game in family_shapes(observation == "history").items() if game == "tressette"
        )
        sizes = [inputs, *hidden, NUM_ACTIONS]
        layers = [
            (rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in)).astype(np.float32), np.zeros(n_out, np.float32))
            for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True)
        ]
        return cls(layers, activation, observation=observation)


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
        self._rules = None
        self._observation = None

    def __getstate__(self) -> dict:
        # The observation's encoder is compiled code: a copy (in a worker process) makes its own.
        return {**self.__dict__, "_rules": None, "_observation": None}

    def check_game(self, rules) -> None:
        """Raise ``ValueError`` unless this policy plays the game of ``rules`` (its observation's size)."""
        self._observation_for(rules)

    def _observation_for(self, rules):
        """The observation of the game these rules belong to, checked against the policy's input size."""
        from ..encoders.family import observation_of

        history = self.policy.observation == "history"
        observation = observation_of(rules, history)
        size = self.policy.layers[0][0].shape[1]
        if observation.size != size:
            game = family_shapes(history).get((size, self.policy.layers[-1][0].shape[0]), "another game")
            kind = "history observation" if history else "observation"
            raise ValueError(
                f"the policy {self.name!r} takes {size} {kind} entries ({game}); {rules.game.name} gives "
                f"{observation.size}: a policy plays the game it was trained on"
            )
        return observation

    def _logits(self, view: SeatView, legal: list[int]) -> np.ndarray:
        """The policy's logits of the ``legal`` actions in ``view``."""
        rules = view.public.rules
        if rules is not self._rules:
            self._observation = self._observation_for(rules)
            self._rules = rules
        with np.errstate(over="ignore", invalid="ignore"):  # (an overflow is said below, in one line)
            logits = self.policy.logits(self._observation.encode(view))[legal]  # its private cards too (a monte it saw)
        if not np.isfinite(logits).all():  # weights so large that float32 overflows: no choice to read from them
            raise ValueError(
                f"{self.name}: the policy's logits overflow float32 (NaN or infinite) here: its weights are too large"
            )
        return logits

    def probabilities(self, view: SeatView, legal: list[int]) -> np.ndarray:
        """The policy's probability of each of the ``legal`` actions in ``view`` (a softmax of its logits)."""
        logits = self._logits(view, legal)
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def ranked(self, view: SeatView, legal: list[int]) -> list[int]:
        """The ``legal`` actions from the policy's most likely down (ties: the order of ``legal``)."""
        logits = self._logits(view, legal)
        return [legal[i] for i in np.argsort(-logits, kind="stable")]

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        logits = self._logits(view, legal)
        if self.deterministic:
            return legal[int(np.argmax(logits))]
        weights = np.exp(logits - logits.max())
        return rng.choices(legal, weights=weights.tolist())[0]
