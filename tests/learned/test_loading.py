"""Loading a model never runs code from the file: an SB3 zip's pickles are never decoded.

A crafted ``.zip`` whose ``data`` entry holds a pickle that creates a marker file (as a real
attack would call ``os.system``) is read through ``load_player``, ``make_player`` and
``tressette eval``: the marker never appears; a zip whose weights are otherwise a valid policy
plays, one whose weights are not gives one clear error line.
"""

import pickle
import sys

import numpy as np
import pytest

from tressette_env.cli import main
from tressette_env.learned import MLPPlayer, load_player
from tressette_env.learned.mlp import ACTIVATIONS

from .sb3_files import Payload, actor_state, data_with_payload, sb3_zip, torch_bytes

torch = pytest.importorskip("torch")


def expected_logits(state, obs, activation="tanh"):
    hidden = obs @ state["mlp_extractor.policy_net.0.weight"].T + state["mlp_extractor.policy_net.0.bias"]
    return ACTIVATIONS[activation](hidden) @ state["action_net.weight"].T + state["action_net.bias"]


def outcome(load):
    """What ``load()`` returned, or the exception it raised (SystemExit included)."""
    try:
        return load()
    except (Exception, SystemExit) as error:
        return error


def loaders(path):
    """The three ways a user hands us a model file."""
    from tressette_env.agents.registry import make_player

    return {
        "load_player": lambda: load_player(path),
        "make_player": lambda: make_player(str(path)),
        "tressette eval": lambda: main(
            ["eval", str(path), "random", "--deals", "2", "--workers", "1", "--no-progress"]
        ),
    }


@pytest.mark.parametrize("how", ["load_player", "make_player", "tressette eval"])
def test_a_payload_in_data_never_runs_and_the_weights_load(how, tmp_path, capsys):
    marker = tmp_path / "pwned"
    state = actor_state(seed=1)
    path = sb3_zip(tmp_path / "model.zip", data=data_with_payload(marker), weights=state)
    result = outcome(loaders(path)[how])
    assert not marker.exists(), "loading the model ran code from the file"  # checked first, whatever happened
    if how == "tressette eval":
        assert result == 0 and f"| {path} | random | 2 |" in capsys.readouterr().out
        return
    assert isinstance(result, MLPPlayer) and result.name == "model"
    obs = np.random.default_rng(0).integers(0, 2, (4, 790)).astype(np.float32)
    assert np.allclose(result.policy.logits(obs), expected_logits(state, obs), atol=1e-5)


@pytest.mark.parametrize("how", ["load_player", "make_player", "tressette eval"])
@pytest.mark.parametrize("where", ["data is a pickle", "policy.pth is a pickle", "payload and bad weights"])
def test_a_payload_that_is_not_a_policy_runs_nothing_and_is_named(how, where, tmp_path, capsys):
    marker = tmp_path / "pwned"
    if where == "data is a pickle":
        path = sb3_zip(tmp_path / "model.zip", data=pickle.dumps(Payload(marker)))
        problem = "its 'data' entry is not JSON"
    elif where == "policy.pth is a pickle":
        path = sb3_zip(tmp_path / "model.zip", weights=torch_bytes({"w": Payload(marker)}))
        problem = "policy.pth is not a plain state dict of tensors ("  # then the object torch names, if it does
    else:
        state = actor_state()
        state["action_net.weight"] = state["action_net.weight"][:, :8]  # does not take the hidden layer's 16
        path = sb3_zip(tmp_path / "model.zip", data=data_with_payload(marker), weights=state)
        problem = "layer 1: weight of shape (161, 8) takes 8 inputs, but it is fed layer 0's 16 outputs"
    result = outcome(loaders(path)[how])
    assert not marker.exists(), "loading the model ran code from the file"  # checked first, whatever happened
    if how == "tressette eval":
        assert isinstance(result, SystemExit) and result.code == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert err.startswith(f"tressette eval: error: {path}: ") and problem in err
    else:
        assert isinstance(result, ValueError) and type(result).__name__ == "ModelFileError"
        assert str(result).startswith(f"{path}: ") and problem in str(result) and "\n" not in str(result)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_a_real_sb3_model_plays_as_the_exported_policy(activation, tmp_path):
    """The safe reader gives the same network as the in-memory export, the activation read from plain JSON."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from tressette_env.training.export import policy_from_sb3
    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.wrappers import SingleSeatEnv

    kwargs = {"net_arch": [12, 8]}
    if activation == "relu":
        kwargs["activation_fn"] = torch.nn.ReLU  # SB3 pickles policy_kwargs then, and writes str() beside
    model = MaskablePPO(MaskablePolicy, SingleSeatEnv(), n_steps=64, batch_size=64, policy_kwargs=kwargs, seed=0)
    model.save(tmp_path / "m.zip")
    player = load_player(tmp_path / "m.zip")
    exported = policy_from_sb3(model)
    assert player.policy.activation == exported.activation == activation
    obs = np.random.default_rng(0).integers(0, 2, (6, 790)).astype(np.float32)
    assert np.allclose(player.policy.logits(obs), exported.logits(obs), atol=1e-6)


def test_an_activation_that_numpy_does_not_play_is_refused(tmp_path):
    data = {
        "policy_kwargs": {
            ":type:": "<class 'dict'>",
            ":serialized:": "not decoded",
            "activation_fn": "<class 'torch.nn.modules.activation.GELU'>",
        }
    }
    with pytest.raises(ValueError, match=r"activation <class 'torch.nn.modules.activation.GELU'>: only Tanh, ReLU"):
        load_player(sb3_zip(tmp_path / "m.zip", data=data))


def test_reading_a_zip_without_torch_says_what_to_install(tmp_path, monkeypatch):
    path = sb3_zip(tmp_path / "m.zip")
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(
        ImportError, match=r'needs torch, in the training extras: pip install -e "\.\[train\]" \(from a'
    ):
        load_player(path)


def test_make_player_is_exported_from_agents():
    from tressette_env.agents import make_player
    from tressette_env.agents.registry import make_player as registry_make_player

    assert make_player is registry_make_player and make_player("random").name == "random"
