"""Damaged model files: ``load_player`` raises one ``ModelFileError`` line naming the file and the problem,
and ``tressette eval`` prints ``tressette eval: error: <file>: <problem>`` and exits with status 1, never a
traceback. Every layer is checked when the file is read, not in the middle of a game."""

import json
import zipfile

import numpy as np
import pytest

from tressette_env.cli import main
from tressette_env.learned import MLPPolicy, load_player

from .sb3_files import actor_state, sb3_zip


def policy_arrays(hidden=(16, 8)):
    arrays = {}
    for i, (w, b) in enumerate(MLPPolicy.random(hidden=hidden, seed=0).layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    return arrays


def meta(layers=3, activation="tanh"):
    return np.array(json.dumps({"activation": activation, "layers": layers, "info": {}}))


def saved_npz(tmp_path):
    return MLPPolicy.random(hidden=(16, 8), seed=0).save(tmp_path / "good.npz").read_bytes()


def write_npz(path, **arrays):
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def npz_case(kind, path, tmp_path):
    arrays = policy_arrays()
    if kind == "truncated":
        good = saved_npz(tmp_path)
        path.write_bytes(good[: len(good) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "random bytes":
        path.write_bytes(np.random.default_rng(0).bytes(2000))
    elif kind == "no meta":
        write_npz(path, **arrays)
    elif kind == "meta not JSON":
        write_npz(path, meta=np.array("{layers: 3"), **arrays)
    elif kind == "meta not an object":
        write_npz(path, meta=np.array("[3]"), **arrays)
    elif kind == "meta a number":
        write_npz(path, meta=np.array(3), **arrays)
    elif kind == "layers missing":
        write_npz(path, meta=meta(layers=4), **arrays)
    elif kind == "bad layer count":
        write_npz(path, meta=meta(layers="three"), **arrays)
    elif kind == "hidden layers do not chain":
        arrays["w1"] = arrays["w1"][:, :12]  # takes 12 inputs where layer 0 gives 16
        write_npz(path, meta=meta(), **arrays)
    elif kind == "bias of the wrong length":
        arrays["b1"] = arrays["b1"][:5]
        write_npz(path, meta=meta(), **arrays)
    elif kind == "wrong observation size":
        arrays["w0"] = arrays["w0"][:, :100]
        write_npz(path, meta=meta(), **arrays)
    elif kind == "NaN weights":
        arrays["w2"] = arrays["w2"].copy()
        arrays["w2"][0, 0] = np.nan
        write_npz(path, meta=meta(), **arrays)
    elif kind == "pickled object array":
        arrays["w0"] = np.array([object()] * 3, dtype=object)
        write_npz(path, meta=meta(), **arrays)
    elif kind == "unknown activation":
        write_npz(path, meta=meta(activation="gelu"), **arrays)
    elif kind == "one .npy array":
        with open(path, "wb") as f:
            np.save(f, arrays["w0"])
    elif kind == "a directory":
        path.mkdir()
    else:
        raise AssertionError(kind)


NPZ_CASES = {
    "truncated": "not a readable .npz archive",
    "empty": "an empty file",
    "random bytes": "not an .npz archive (it does not start as a zip)",
    "no meta": "no 'meta' entry",
    "meta not JSON": "'meta' is not JSON",
    "meta not an object": "'meta' must be a JSON object",
    "meta a number": "'meta' must be one JSON string",
    "layers missing": "meta says 4 layers but entries w3, b3 are missing",
    "bad layer count": "meta 'layers'='three': must be an integer >= 1",
    "hidden layers do not chain": "layer 1: weight of shape (8, 12) takes 12 inputs, but it is fed layer 0's 16 outputs",
    "bias of the wrong length": "layer 1: bias of 5 entries for a weight of 8 outputs",
    "wrong observation size": "layer 0: weight of shape (16, 100) takes 100 inputs, but it is fed the 790 observation",
    "NaN weights": "layer 2: the weight holds NaN or infinite values",
    "pickled object array": "entry 'w0' holds pickled objects, refused unread",
    "unknown activation": "activation 'gelu': must be one of tanh, relu",
    "one .npy array": "not an .npz archive (it does not start as a zip)",
    "a directory": "a directory, not a model file",
}


def zip_case(kind, path, tmp_path):
    if kind == "truncated":
        good = sb3_zip(tmp_path / "good.zip").read_bytes()
        path.write_bytes(good[: len(good) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "random bytes":
        path.write_bytes(np.random.default_rng(1).bytes(3000))
    elif kind == "no policy.pth":
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("data", "{}")
    elif kind == "data not JSON":
        sb3_zip(path, data=b"\x80\x04not json")
    elif kind == "policy.pth garbage":
        sb3_zip(path, weights=b"garbage, not a torch file")
    elif kind == "layers do not chain":
        state = actor_state(hidden=(16,))
        state["mlp_extractor.policy_net.2.weight"] = np.zeros((8, 12), np.float32)
        state["mlp_extractor.policy_net.2.bias"] = np.zeros(8, np.float32)
        sb3_zip(path, weights=state)
    elif kind == "not an actor-critic":
        sb3_zip(path, weights={"q_net.q_net.0.weight": np.zeros((161, 790), np.float32)})
    else:
        raise AssertionError(kind)


ZIP_CASES = {
    "truncated": "not a readable zip archive",
    "empty": "not a readable zip archive (BadZipFile",
    "random bytes": "not a readable zip archive",
    "no policy.pth": "no 'policy.pth' entry: not a model saved by stable-baselines3",
    "data not JSON": "its 'data' entry is not JSON",
    "policy.pth garbage": "policy.pth is not a plain state dict of tensors (torch.load refused it)",
    "layers do not chain": "layer 1: weight of shape (8, 12) takes 12 inputs, but it is fed layer 0's 16 outputs",
    "not an actor-critic": "its weights have no action_net: not an actor-critic policy",
}

CASES = [("npz", k, v) for k, v in NPZ_CASES.items()] + [("zip", k, v) for k, v in ZIP_CASES.items()]


def damaged(suffix, kind, tmp_path):
    if suffix == "zip":
        pytest.importorskip("torch")
    path = tmp_path / f"model.{suffix}"
    (npz_case if suffix == "npz" else zip_case)(kind, path, tmp_path)
    return path


@pytest.mark.parametrize(("suffix", "kind", "problem"), CASES, ids=[f"{s}: {k}" for s, k, _ in CASES])
def test_load_player_names_the_file_and_the_problem(suffix, kind, problem, tmp_path):
    path = damaged(suffix, kind, tmp_path)
    with pytest.raises(ValueError) as error:
        load_player(path)
    message = str(error.value)
    assert type(error.value).__name__ == "ModelFileError"  # tressette_env.learned.ModelFileError, a ValueError
    assert message.startswith(f"{path}: ") and problem in message and "\n" not in message


@pytest.mark.parametrize(("suffix", "kind", "problem"), CASES, ids=[f"{s}: {k}" for s, k, _ in CASES])
def test_tressette_eval_prints_one_line_and_exits_1(suffix, kind, problem, tmp_path, capsys):
    path = damaged(suffix, kind, tmp_path)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as exit_:
        main(["eval", str(path), "random", "--deals", "2", "--json", str(out), "--no-progress"])
    assert exit_.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.startswith(f"tressette eval: error: {path}: ") and captured.err.count("\n") == 1
    assert problem in captured.err
    assert not out.exists()


def test_a_missing_model_stays_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["eval", str(tmp_path / "nowhere.npz"), "random"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().endswith(f"no model at {tmp_path / 'nowhere.npz'}")


def test_the_checks_hold_for_policies_made_in_code():
    layers = MLPPolicy.random(hidden=(16, 8), seed=0).layers
    with pytest.raises(ValueError, match=r"layer 1: weight of shape \(8, 12\) takes 12 inputs"):
        MLPPolicy([layers[0], (layers[1][0][:, :12], layers[1][1]), layers[2]])
    with pytest.raises(ValueError, match="at least one layer"):
        MLPPolicy([])
