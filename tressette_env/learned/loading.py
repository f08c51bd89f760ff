"""Players from trained models: the shipped one, a NumPy policy (``.npz``), an SB3 model (``.zip``).

Reading a model never runs code from the file. An ``.npz`` is read with
``allow_pickle=False``. Of an SB3 ``.zip`` only two entries are read: ``policy.pth``, the
weights, with ``torch.load(weights_only=True)`` (tensors only, no pickled objects), and
``data``, as plain JSON. SB3 writes some of ``data``'s fields as base64 cloudpickles
(``":serialized:"``); they are never decoded. The layer shapes come from the weights'
shapes and the activation from the plain-text copy of ``policy_kwargs`` that SB3 writes
beside the pickle. ``stable_baselines3``'s own ``load`` unpickles ``data`` and would run
whatever a crafted file holds, so nothing here calls it (``tressette train --resume`` does,
on our own checkpoints only: see ``tressette_env.training.checkpoint``).

Everything that cannot be read this way raises ``ModelFileError`` (a ``ValueError``), one
line that names the file and what is wrong. What a file claims is bounded before anything it
claims is allocated (``tressette_env.learned.files``): the file's size, the zip's directory
and members, the unpacked sizes of ``data`` and ``policy.pth`` and of the records inside
``policy.pth`` (torch unpacks a compressed record whole), the number of tensors, and each
actor tensor's shape before it is converted (a tensor can be a view of many more numbers than
its file holds).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np

from ..engine.state import SeatView
from ..messages import cut, reason, shown
from .files import (
    MAX_ENTRIES,
    MAX_ENTRY_BYTES,
    MAX_JSON_BYTES,
    MAX_LAYERS,
    MAX_PARAMETERS,
    checked_file_size,
    checked_member,
    checked_zip,
)
from .mlp import MLPPlayer, MLPPolicy, ModelFileError, _layer_problem, _too_many_parameters, family_shapes

SHIPPED_MODEL = "ppo_v0.npz"
"""The file, in ``tressette_env/models``, that the player name ``ppo`` loads in the four-seat game (its ``Entry.model``)."""

TRAIN_HINT = 'pip install -e ".[train]" (from a clone) or pip install "tressette-env[train]"'
"""How to install the training extras, said so that it works from a clone and from the package index."""

# The activations SB3's MlpExtractor can be given that MLPPolicy plays, by torch class name.
_SB3_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}
_HIDDEN = re.compile(r"mlp_extractor\.policy_net\.(\d{1,6})\.(weight|bias)")


def shipped_model_path(game: str = "tressette") -> Path:
    """The path of the model shipped with the package for ``game`` (the catalog's ``Entry.model``).

    Raises:
        ValueError: no model is shipped for that game (the message names the games that have one).
    """
    from .. import catalog

    entry = catalog.entry(game)
    if entry.model is None:
        having = [e.name for e in catalog.entries() if e.model is not None]
        raise ValueError(f"ppo: no model is shipped for {game} yet; the games with one: {', '.join(having)}")
    return Path(__file__).resolve().parent.parent / "models" / entry.model


class ShippedPlayer(MLPPlayer):
    """The player ``ppo``: in each game the model shipped for it (``Entry.model``), played in NumPy.

    Its ``policy`` is the four-seat game's model; in another game it plays that game's own,
    loaded the first time the game is played (``check_game`` loads it, or says that the game
    has none yet).
    """

    def __init__(self, deterministic: bool = True):
        path = shipped_model_path()
        if not path.exists():
            raise ValueError(f"the shipped model is missing from this installation ({path})")
        super().__init__(path, deterministic=deterministic, name="ppo")
        self._path = path
        self._by_game: dict[str, MLPPlayer | None] = {}

    def _for(self, rules: object) -> MLPPlayer | None:
        """The player of the game of ``rules``; None for the four-seat game (this player itself)."""
        name = rules.game.name  # type: ignore[attr-defined]
        if name in self._by_game:
            return self._by_game[name]
        path = shipped_model_path(name)
        if path == self._path:
            player = None
        else:
            if not path.exists():
                raise ValueError(f"the shipped model of {name} is missing from this installation ({path})")
            player = MLPPlayer(path, deterministic=self.deterministic, name="ppo")
        self._by_game[name] = player
        return player

    def check_game(self, rules: object) -> None:
        player = self._for(rules)
        (super() if player is None else player).check_game(rules)

    def _logits(self, view: SeatView, legal: list[int]) -> np.ndarray:
        player = self._for(view.public.rules)
        return super()._logits(view, legal) if player is None else player._logits(view, legal)


def shipped_player(deterministic: bool = True) -> ShippedPlayer:
    """The player ``ppo``: the MaskablePPO model shipped with the package for each game, played in NumPy."""
    return ShippedPlayer(deterministic=deterministic)


def load_player(path: str | Path, deterministic: bool = True) -> MLPPlayer:
    """A player from a saved model: ``.npz`` (an ``MLPPolicy``) or ``.zip`` (an SB3 (Maskable)PPO model).

    Neither kind can run code when read (see the module docstring).

    Raises:
        ValueError: there is no file at ``path``, or it has another suffix.
        ModelFileError: the file is damaged or not a policy (a ``ValueError`` too).
        ImportError: a ``.zip`` without torch installed (needed to read its weights).
    """
    path = Path(path)
    if not path.exists():
        raise ValueError(f"no model at {path}")
    if path.suffix not in (".npz", ".zip"):
        raise ValueError(f"{path}: a model is a .npz policy or a .zip SB3 model")
    if not path.is_file():
        raise ModelFileError(path, "a directory, not a model file")
    if path.suffix == ".npz":
        return MLPPlayer(MLPPolicy.load(path), deterministic=deterministic, name=path.stem)
    return MLPPlayer(policy_from_sb3_zip(path), deterministic=deterministic, name=path.stem)


def policy_from_sb3_zip(path: str | Path) -> MLPPolicy:
    """The actor of an SB3 (Maskable)PPO ``MlpPolicy`` saved in ``path``, read without unpickling anything.

    Raises:
        ModelFileError: the file is not a readable SB3 zip, or its policy is not a plain MLP
            over the 790 observation entries with a Tanh or ReLU activation.
        ImportError: torch is not installed.
    """
    path = Path(path)
    try:
        import torch
    except ImportError as error:
        raise ImportError(f"reading the weights in {path} needs torch, in the training extras: {TRAIN_HINT}") from error
    try:
        with open(path, "rb") as stream:
            checked_file_size(path, stream)
            with checked_zip(path, stream) as archive:
                names = set(archive.namelist())
                for entry in ("data", "policy.pth"):
                    if entry not in names:
                        raise ModelFileError(path, f"no {entry!r} entry: not a model saved by stable-baselines3")
                raw_data = checked_member(path, archive, "data", MAX_JSON_BYTES)
                raw_weights = checked_member(path, archive, "policy.pth", MAX_ENTRY_BYTES)
    except ModelFileError:
        raise
    except Exception as error:  # BadZipFile, a truncated member (EOFError, zlib.error), OSError
        raise ModelFileError(path, f"not a readable zip archive ({reason(error)})") from None
    activation = _activation(path, raw_data)
    _check_torch_records(path, raw_weights)
    try:
        state = torch.load(io.BytesIO(raw_weights), map_location="cpu", weights_only=True)
    except Exception as error:  # weights_only refuses anything but tensors and plain containers
        # torch's message advises loading with weights_only=False, the very thing never to do here: name the object only.
        found = re.search(r"Unsupported global: GLOBAL (\S+)", str(error))
        what = f"it holds a pickled {shown(found.group(1))}, refused unread" if found else "torch.load refused it"
        raise ModelFileError(path, f"policy.pth is not a plain state dict of tensors ({what})") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise ModelFileError(path, "policy.pth is not a state dict of tensors")
    if not all(isinstance(k, str) for k in state):
        raise ModelFileError(path, "policy.pth is not a state dict of tensors (its keys are not all names)")
    if len(state) > MAX_ENTRIES:
        raise ModelFileError(
            path, f"policy.pth holds {len(state)} tensors: a policy's state dict has at most {MAX_ENTRIES}"
        )
    return _policy_from_state(path, state, activation)


def _check_torch_records(path: Path, raw: bytes) -> None:
    """Refuse a ``policy.pth`` whose records would unpack past ``MAX_ENTRY_BYTES``, before torch unpacks them.

    ``torch.save`` writes a zip of records (the pickle, one record per storage), uncompressed;
    ``torch.load`` would unpack a compressed record whole, however large it claims to be. Torch's
    older format (not a zip) is refused: SB3 has written the zip format since torch 1.6.
    """
    try:
        with checked_zip(path, io.BytesIO(raw), what="policy.pth: ") as records:
            unpacked = sum(record.file_size for record in records.infolist())
    except ModelFileError:
        raise
    except Exception:  # BadZipFile, ValueError
        raise ModelFileError(
            path, "policy.pth is not a plain state dict of tensors (not in torch's zip format)"
        ) from None
    if unpacked > MAX_ENTRY_BYTES:
        raise ModelFileError(path, f"policy.pth: its records unpack to {unpacked} bytes: at most {MAX_ENTRY_BYTES}")


def _activation(path: Path, raw: bytes) -> str:
    """The hidden layers' activation, from the plain JSON of SB3's ``data`` entry (its pickles are left alone)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:  # also UnicodeDecodeError; RecursionError: nested too deep
        raise ModelFileError(path, f"its 'data' entry is not JSON ({reason(error)})") from None
    if not isinstance(data, dict):
        raise ModelFileError(path, "its 'data' entry is not a JSON object")
    kwargs = data.get("policy_kwargs", {})
    if not isinstance(kwargs, dict):
        raise ModelFileError(path, "its policy_kwargs are not a JSON object")
    # A policy_kwargs dict that holds classes is pickled by SB3, which also writes each item's str()
    # beside the pickle ("<class 'torch.nn.modules.activation.ReLU'>"): read that text, never the pickle.
    extractor = kwargs.get("features_extractor_class")
    if extractor is not None and "FlattenExtractor" not in str(extractor):
        raise ModelFileError(
            path, f"its features extractor {cut(str(extractor))} is not the flat observation (FlattenExtractor)"
        )
    given = kwargs.get("activation_fn")
    if given is None:
        return "tanh"  # ActorCriticPolicy's default
    name = re.sub(r"['>]", "", str(given)).rsplit(".", 1)[-1]
    if name not in _SB3_ACTIVATIONS:
        raise ModelFileError(path, f"activation {cut(str(given))}: only {', '.join(_SB3_ACTIVATIONS)} can be played")
    return _SB3_ACTIVATIONS[name]


def _policy_from_state(path: Path, state: dict, activation: str) -> MLPPolicy:
    """The actor layers of an ActorCriticPolicy state dict: ``mlp_extractor.policy_net.<i>`` then ``action_net``.

    ``state`` maps names to torch tensors; only the actor's are converted, once their shapes are within bounds.
    """
    import torch

    if "action_net.weight" not in state or "action_net.bias" not in state:
        raise ModelFileError(path, "its weights have no action_net: not an actor-critic policy")
    learned_extractor = [k for k in state if "features_extractor." in k]
    if learned_extractor:
        raise ModelFileError(
            path,
            f"its features extractor has weights ({shown(learned_extractor[0])}): only a flat-observation MLP is played",
        )
    hidden: dict[int, dict[str, torch.Tensor]] = {}
    for key, tensor in state.items():
        match = _HIDDEN.fullmatch(key)
        if match:
            hidden.setdefault(int(match.group(1)), {})[match.group(2)] = tensor
        elif key.startswith("mlp_extractor.policy_net."):
            raise ModelFileError(path, f"its policy network has a {shown(key)} entry: only Linear layers can be played")
    if len(hidden) + 1 > MAX_LAYERS:
        raise ModelFileError(path, f"its policy has {len(hidden) + 1} layers: at most {MAX_LAYERS}")
    tensors = []
    for index in sorted(hidden):
        if set(hidden[index]) != {"weight", "bias"}:
            raise ModelFileError(path, f"layer mlp_extractor.policy_net.{index} lacks its weight or its bias")
        tensors.append((hidden[index]["weight"], hidden[index]["bias"]))
    tensors.append((state["action_net.weight"], state["action_net.bias"]))
    parameters = 0
    for i, pair in enumerate(tensors):  # shapes first: a view can claim far more numbers than its storage holds
        for name, tensor in zip(("weight", "bias"), pair, strict=True):
            problem = _layer_problem(i, name, tuple(tensor.shape), np.dtype(np.float32))
            if problem:
                raise ModelFileError(path, problem)
            parameters += tensor.numel()
            if parameters > MAX_PARAMETERS:
                raise ModelFileError(path, _too_many_parameters(parameters))
    layers = [tuple(t.detach().to(torch.float32).cpu().numpy() for t in pair) for pair in tensors]
    # The zip does not say which observation its policy reads: the four-seat game's history
    # observation is told by its size (a family game's input sizes are checked when it plays).
    shape = (layers[0][0].shape[1], layers[-1][0].shape[0])
    observation = "history" if shape in family_shapes(True) and shape not in family_shapes(False) else "default"
    try:
        return MLPPolicy(layers, activation, observation=observation)
    except ValueError as error:
        raise ModelFileError(path, str(error)) from None
