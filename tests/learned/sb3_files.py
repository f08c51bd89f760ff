"""Model files built by hand for the loading tests: SB3-shaped zips, payloads, damaged copies."""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np

from tressette_env.encoders.observation import SIZE
from tressette_env.engine.actions import NUM_ACTIONS


class Payload:
    """Unpickled, it creates ``marker``: the proof that loading a file ran code from it."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def payload_b64(marker: Path) -> str:
    return base64.b64encode(pickle.dumps(Payload(marker))).decode()


def actor_state(hidden=(16,), seed=0, inputs=SIZE) -> dict[str, np.ndarray]:
    """An ActorCriticPolicy-shaped state dict (actor and critic) over ``inputs`` observation entries, as arrays."""
    rng = np.random.default_rng(seed)
    sizes = [inputs, *hidden]
    state = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        for net in ("policy_net", "value_net"):
            state[f"mlp_extractor.{net}.{2 * i}.weight"] = rng.normal(0, 0.1, (n_out, n_in)).astype(np.float32)
            state[f"mlp_extractor.{net}.{2 * i}.bias"] = rng.normal(0, 0.1, n_out).astype(np.float32)
    state["action_net.weight"] = rng.normal(0, 0.1, (NUM_ACTIONS, sizes[-1])).astype(np.float32)
    state["action_net.bias"] = rng.normal(0, 0.1, NUM_ACTIONS).astype(np.float32)
    state["value_net.weight"] = rng.normal(0, 0.1, (1, sizes[-1])).astype(np.float32)
    state["value_net.bias"] = np.zeros(1, np.float32)
    return state


def torch_bytes(obj) -> bytes:
    import torch

    if isinstance(obj, dict) and all(isinstance(v, np.ndarray) for v in obj.values()):
        obj = {k: torch.as_tensor(v) for k, v in obj.items()}
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def sb3_zip(path: Path, *, data=None, weights=None, entries=None) -> Path:
    """An SB3-style model zip: ``data`` (a dict as JSON, or raw bytes) and ``policy.pth`` (a state dict or raw bytes)."""
    if data is None:
        data = {"policy_kwargs": {"net_arch": [16]}, "n_envs": 1}
    if weights is None:
        weights = actor_state()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", data if isinstance(data, bytes) else json.dumps(data))
        archive.writestr("policy.pth", weights if isinstance(weights, bytes) else torch_bytes(weights))
        archive.writestr("pytorch_variables.pth", torch_bytes({}))
        archive.writestr("_stable_baselines3_version", "2.9.2")
        for name, content in (entries or {}).items():
            archive.writestr(name, content)
    return path


def data_with_payload(marker: Path) -> dict:
    """A ``data`` entry whose pickled fields each create ``marker`` when SB3 deserializes them."""
    serialized = {":type:": "<class 'abc.ABCMeta'>", ":serialized:": payload_b64(marker)}
    return {
        "policy_class": dict(serialized, __module__="sb3_contrib.common.maskable.policies"),
        "policy_kwargs": {"net_arch": [16]},
        "observation_space": serialized,
        "action_space": serialized,
        "lr_schedule": serialized,
        "n_envs": 1,
    }
