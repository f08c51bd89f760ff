"""Damaged and hostile model files: ``load_player`` raises one ``ModelFileError`` line naming the file and the
problem, and ``tressette eval`` prints ``tressette eval: error: <file>: <problem>`` and exits with status 1, never a
traceback. Every layer is checked when the file is read, not in the middle of a game. What a file claims (its size,
its members, its layer count, its entries' shapes) is checked against the bounds of ``tressette_env.learned.files``
before anything is allocated, and a line quoting the file stays short whatever the file says."""

import io
import json
import re
import struct
import tracemalloc
import zipfile
from random import Random

import numpy as np
import pytest

from tressette_env.cli import main
from tressette_env.learned import MLPPolicy, load_player
from tressette_env.learned.files import MAX_FILE_BYTES, MAX_LAYERS, MAX_PARAMETERS, MAX_WIDTH

from .sb3_files import actor_state, sb3_zip, torch_bytes

LONG = 300
"""The most characters an error may add after ``<file>: ``, whatever the file holds."""


def policy_arrays(hidden=(16, 8)):
    arrays = {}
    for i, (w, b) in enumerate(MLPPolicy.random(hidden=hidden, seed=0).layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    return arrays


def meta(layers=3, activation="tanh", **more):
    return np.array(json.dumps({"activation": activation, "layers": layers, "info": {}, **more}))


def npy_claim(shape, descr="<f4", data=b""):
    """An ``.npy`` member whose header claims ``shape`` of ``descr``, followed by ``data`` only."""
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue() + data


def npy(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def write_zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)


def torch_state(state):
    """``state`` (arrays or tensors) as tensors, so that a test can put in a tensor of its own making."""
    import torch

    return {k: v if isinstance(v, torch.Tensor) else torch.as_tensor(v) for k, v in state.items()}


def patched_u32(raw, at, value):
    return raw[:at] + struct.pack("<L", value) + raw[at + 4 :]


def records_claiming(raw, size):
    """Torch's ``policy.pth`` bytes ``raw`` with its first storage record's directory entry claiming ``size`` bytes."""
    record = next(n for n in zipfile.ZipFile(io.BytesIO(raw)).namelist() if "/data/" in n)
    entry = raw.rfind(record.encode()) - 46  # the directory entry's fixed part, then the name
    assert raw[entry : entry + 4] == b"PK\x01\x02"
    return patched_u32(raw, entry + 24, size)  # its uncompressed size


def zip64_directory_claiming(raw, size):
    """Torch's ``policy.pth`` bytes ``raw`` with its zip64 end record claiming a directory of ``size`` bytes."""
    at = raw.rfind(b"PK\x06\x06")
    return raw[: at + 40] + struct.pack("<Q", size) + raw[at + 48 :]


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
    elif kind == "float64 weights past float32's range":
        arrays["w1"] = arrays["w1"].astype(np.float64)
        arrays["w1"][0, 0] = 1e300
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
    elif kind == "a million layers":
        write_npz(path, meta=meta(layers=10**6), **arrays)
    elif kind == "a billion layers":
        write_npz(path, meta=meta(layers=10**9), **arrays)
    elif kind == "17 layers":
        write_npz(path, meta=meta(layers=17), **arrays)
    elif kind == "layers a long string":
        write_npz(path, meta=meta(layers="3" * 10**6), **arrays)
    elif kind == "activation a long string":
        write_npz(path, meta=meta(activation="g" * 10**6), **arrays)
    elif kind == "activation an object":
        write_npz(path, meta=meta(activation={"name": "tanh"}), **arrays)
    elif kind == "observation a long string":
        write_npz(path, meta=meta(observation="o" * 10**6), **arrays)
    elif kind == "meta nested too deep":
        write_npz(path, meta=np.array("[" * 10**5), **arrays)
    elif kind == "meta too long":
        write_npz(path, meta=meta(note="x" * 2**20), **arrays)
    elif kind == "an entry claims a billion columns":
        members = {f"{k}.npy": npy(v) for k, v in arrays.items()}
        write_zip(path, {"meta.npy": npy(meta()), **members, "w0.npy": npy_claim((16, 10**9), data=bytes(64))})
    elif kind == "entries claim too many numbers":
        claims = {f"w{i}.npy": npy_claim((4096, 4096), "<f8") for i in range(3)}
        claims |= {f"b{i}.npy": npy_claim((4096,), "<f8") for i in range(3)}
        write_zip(path, {"meta.npy": npy(meta()), **claims})
    elif kind == "an entry claims 3 dimensions":
        members = {f"{k}.npy": npy(v) for k, v in arrays.items()}
        write_zip(path, {"meta.npy": npy(meta()), **members, "w0.npy": npy_claim((16, 790, 10**9))})
    elif kind == "a wide layer":
        arrays["w0"], arrays["b0"], arrays["w1"] = np.zeros((4097, 790)), np.zeros(4097), np.zeros((8, 4097))
        write_npz(path, meta=meta(), **arrays)
    elif kind == "300 members":
        write_npz(path, meta=meta(), **arrays, **{f"extra{i}": np.zeros(1) for i in range(300)})
    elif kind == "a directory claiming 2 GB":
        path.write_bytes(saved_npz(tmp_path))
        raw = path.read_bytes()
        path.write_bytes(patched_u32(raw, len(raw) - 22 + 12, 2**31))  # the end record's directory size
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
    "bad layer count": "meta 'layers'='three': must be an integer from 1 to 16",
    "hidden layers do not chain": "layer 1: weight of shape (8, 12) takes 12 inputs, but it is fed layer 0's 16 outputs",
    "bias of the wrong length": "layer 1: bias of 5 entries for a weight of 8 outputs",
    "wrong observation size": "layer 0: weight of shape (16, 100) takes 100 inputs, but it is fed the 790 observation",
    "NaN weights": "layer 2: the weight holds NaN or infinite values",
    "float64 weights past float32's range": "layer 1: the weight holds values past float32's range",
    "pickled object array": "entry 'w0' holds pickled objects, refused unread",
    "unknown activation": "activation 'gelu': must be one of tanh, relu",
    "one .npy array": "not an .npz archive (it does not start as a zip)",
    "a directory": "a directory, not a model file",
    "a million layers": f"meta 'layers'=1000000: must be an integer from 1 to {MAX_LAYERS}",
    "a billion layers": f"meta 'layers'=1000000000: must be an integer from 1 to {MAX_LAYERS}",
    "17 layers": f"meta 'layers'=17: must be an integer from 1 to {MAX_LAYERS}",
    "layers a long string": "meta 'layers'='333333",
    "activation a long string": "activation 'gggg",
    "activation an object": "activation {'name': 'tanh'}: must be one of tanh, relu",
    "observation a long string": "meta 'observation'='oooo",
    "meta nested too deep": "'meta' is not JSON (RecursionError",
    "meta too long": "'meta' holds 1048",
    "an entry claims a billion columns": f"layer 0: the weight has shape (16, 1000000000): every width is from 1 to {MAX_WIDTH}",
    "entries claim too many numbers": f"numbers or more: a policy has at most {MAX_PARAMETERS}",
    "an entry claims 3 dimensions": "layer 0: the weight must have 2 dimension(s), has shape (16, 790, 1000000000)",
    "a wide layer": f"layer 0: the weight has shape (4097, 790): every width is from 1 to {MAX_WIDTH}",
    "300 members": "307 zip members: a model archive has at most 256",
    "a directory claiming 2 GB": "its zip directory claims 2147483648 bytes: at most 1048576",
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
    elif kind == "data nested too deep":
        sb3_zip(path, data=b"[" * 10**5)
    elif kind == "data too long":
        sb3_zip(path, data=json.dumps({"policy_kwargs": {}, "note": "x" * 2**22}).encode())
    elif kind == "activation a long string":
        sb3_zip(path, data={"policy_kwargs": {"activation_fn": "<class 'G" + "e" * 10**6 + "'>"}})
    elif kind == "extractor a long string":
        sb3_zip(path, data={"policy_kwargs": {"features_extractor_class": "N" * 10**6}})
    elif kind == "a long key":
        state = actor_state()
        state["mlp_extractor.policy_net.1." + "x" * 10**5] = np.zeros(1, np.float32)
        sb3_zip(path, weights=state)
    elif kind == "a layer number of 5000 digits":
        state = actor_state()
        state["mlp_extractor.policy_net." + "9" * 5000 + ".weight"] = np.zeros((1, 1), np.float32)
        sb3_zip(path, weights=state)
    elif kind == "18 layers":
        sb3_zip(path, weights=actor_state(hidden=(4,) * 17))
    elif kind == "a view of a trillion numbers":
        import torch

        state = torch_state(actor_state())
        state["mlp_extractor.policy_net.0.weight"] = torch.zeros(1, dtype=torch.float64).expand(16, 10**12)
        sb3_zip(path, weights=state)
    elif kind == "records claiming 512 MiB":
        sb3_zip(path, weights=records_claiming(torch_bytes(actor_state()), 2**29))
    elif kind == "policy.pth directory claiming 2 GB":
        sb3_zip(path, weights=zip64_directory_claiming(torch_bytes(actor_state()), 2**31))
    elif kind == "300 members":
        sb3_zip(path, entries={f"extra{i}": "" for i in range(300)})
    else:
        raise AssertionError(kind)


ZIP_CASES = {
    "truncated": "not a readable zip archive",
    "empty": "not a readable zip archive (BadZipFile",
    "random bytes": "not a readable zip archive",
    "no policy.pth": "no 'policy.pth' entry: not a model saved by stable-baselines3",
    "data not JSON": "its 'data' entry is not JSON",
    "policy.pth garbage": "policy.pth is not a plain state dict of tensors (not in torch's zip format)",
    "layers do not chain": "layer 1: weight of shape (8, 12) takes 12 inputs, but it is fed layer 0's 16 outputs",
    "not an actor-critic": "its weights have no action_net: not an actor-critic policy",
    "data nested too deep": "its 'data' entry is not JSON (RecursionError",
    "data too long": "its 'data' entry unpacks to 4194",
    "activation a long string": "activation <class 'Geee",
    "extractor a long string": "its features extractor NNNN",
    "a long key": "its policy network has a 'mlp_extractor.policy_net.1.xxxx",
    "a layer number of 5000 digits": "its policy network has a 'mlp_extractor.policy_net.9999",
    "18 layers": f"its policy has 18 layers: at most {MAX_LAYERS}",
    "a view of a trillion numbers": f"layer 0: the weight has shape (16, 1000000000000): every width is from 1 to {MAX_WIDTH}",
    "records claiming 512 MiB": "policy.pth: its records unpack to 536",
    "policy.pth directory claiming 2 GB": "policy.pth: its zip directory claims 2147483648 bytes: at most 1048576",
    "300 members": "304 zip members: a model archive has at most 256",
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
    assert len(message) - len(f"{path}: ") <= LONG, message[:1000]


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
    assert problem in captured.err and len(captured.err) - len(f"tressette eval: error: {path}: ") <= LONG + 1
    assert not out.exists()


HOSTILE = [
    ("npz", "a billion layers"),
    ("npz", "a million layers"),
    ("npz", "an entry claims a billion columns"),
    ("npz", "entries claim too many numbers"),
    ("npz", "an entry claims 3 dimensions"),
    ("zip", "a view of a trillion numbers"),
    ("zip", "records claiming 512 MiB"),
    ("zip", "policy.pth directory claiming 2 GB"),
]


@pytest.mark.parametrize(("suffix", "kind"), HOSTILE, ids=[f"{s}: {k}" for s, k in HOSTILE])
def test_what_a_file_claims_is_refused_before_it_is_allocated(suffix, kind, tmp_path):
    """Each of these files claims gigabytes (or a loop of a billion steps): refusing it takes under 1 MiB."""
    path = damaged(suffix, kind, tmp_path)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="^" + re.escape(f"{path}: ")) as error:
            load_player(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert type(error.value).__name__ == "ModelFileError"
    assert (NPZ_CASES if suffix == "npz" else ZIP_CASES)[kind] in str(error.value)
    assert peak < 2**20, f"{peak} bytes allocated to refuse it"


@pytest.mark.parametrize("layers", [10**6, 10**9])
def test_tressette_eval_refuses_a_file_claiming_many_layers_in_one_short_line(layers, tmp_path, capsys):
    path = tmp_path / "model.npz"
    write_npz(path, meta=meta(layers=layers), **policy_arrays())
    with pytest.raises(SystemExit) as exit_:
        main(["eval", str(path), "heuristic", "--deals", "2", "--no-progress"])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err == f"tressette eval: error: {path}: meta 'layers'={layers}: must be an integer from 1 to {MAX_LAYERS}\n"


@pytest.mark.parametrize("suffix", ["npz", "zip"])
def test_a_file_past_the_size_bound_is_refused_unread(suffix, tmp_path):
    if suffix == "zip":
        pytest.importorskip("torch")
    path = tmp_path / f"model.{suffix}"
    with open(path, "wb") as f:  # sparse: no disk space is used
        f.write(b"PK\x03\x04")
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ValueError) as error:
        load_player(path)
    assert (
        str(error.value)
        == f"{path}: a file of {MAX_FILE_BYTES + 1} bytes: a model file has at most {MAX_FILE_BYTES} (1 GiB)"
    )


def test_a_policy_at_the_bounds_is_saved_and_loaded_back(tmp_path):
    """The bounds refuse no policy that can be made: the widest layer and the most layers round-trip."""
    widths = [790, MAX_WIDTH, *[8] * (MAX_LAYERS - 2), 161]
    layers = [
        (np.zeros((n_out, n_in), np.float32), np.zeros(n_out, np.float32))
        for n_in, n_out in zip(widths, widths[1:], strict=False)
    ]
    loaded = MLPPolicy.load(MLPPolicy(layers).save(tmp_path / "wide.npz"))
    assert [w.shape for w, _ in loaded.layers] == [w.shape for w, _ in layers]


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
    with pytest.raises(ValueError, match=f"^17 layers: a policy has at most {MAX_LAYERS}$"):
        MLPPolicy([layers[1]] * 17)
    wide = (np.zeros((MAX_WIDTH + 1, 790)), np.zeros(MAX_WIDTH + 1))
    with pytest.raises(
        ValueError, match=f"layer 0: the weight has shape \\(4097, 790\\): every width is from 1 to {MAX_WIDTH}"
    ):
        MLPPolicy([wide, (np.zeros((161, MAX_WIDTH + 1)), np.zeros(161))])
    with pytest.raises(ValueError, match=r"activation 'gggg.*\.\.\.: must be one of tanh, relu$"):
        MLPPolicy(layers, activation="g" * 10**6)


def test_save_refuses_an_info_that_load_would_refuse(tmp_path):
    policy = MLPPolicy.random(hidden=(4,), seed=0)
    policy.info = {"note": "x" * 2**20}
    with pytest.raises(
        ValueError, match=r"^its info has 1048\d+ characters as JSON: a model file holds at most 1048576$"
    ):
        policy.save(tmp_path / "p.npz")
    assert not (tmp_path / "p.npz").exists()


def test_a_policy_whose_logits_overflow_float32_is_refused_when_it_plays_not_played_as_the_first_legal_action():
    """Weights within float32 whose products overflow: every logit NaN, and the player took the first legal action."""
    from tressette_env.engine import legal_actions, new_game, view
    from tressette_env.learned import MLPPlayer

    policy = MLPPolicy.random(hidden=(8,))
    w, b = policy.layers[-1]
    w0, b0 = policy.layers[0]
    every_hidden_one = (np.zeros_like(w0), np.full_like(b0, 10.0))  # tanh(10): each hidden unit about 1
    policy = MLPPolicy([every_hidden_one, (np.full_like(w, 3e38), b)])  # 8 x 3e38: past float32's largest
    state = new_game(seed=0)
    with pytest.raises(ValueError, match="logits overflow float32"):
        MLPPlayer(policy).act(view(state, state.public.turn), legal_actions(state), Random(0))
