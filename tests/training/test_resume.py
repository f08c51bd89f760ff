"""``--resume`` continues a run as if it had never stopped; it takes only our checkpoints; the total is the run's.

The reference is one uninterrupted run. A copy of its folder, cut back to a checkpoint (later
checkpoints and final files deleted, ``history.json`` left as it was at the end, as a crash
after the checkpoint leaves it), is resumed with the same settings. Identical: the history
(steps and results), the final weights and optimizer state, the self-play pool, the
environments' deals and random generators, torch's, NumPy's and Python's RNG states.
Not identical: the wall-clock seconds.
"""

import io
import json
import shutil
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from tressette_env.cli import main  # noqa: E402
from tressette_env.learned import MLPPolicy  # noqa: E402
from tressette_env.training import TrainConfig, train  # noqa: E402

from ..learned.sb3_files import data_with_payload  # noqa: E402

INFO_ENTRY, STATE_ENTRY = "tressette_env/checkpoint.json", "tressette_env/state.pkl"


def checkpoint():
    """The module that reads checkpoints (imported late, so that each test fails alone where it is missing)."""
    from tressette_env.training import checkpoint as module

    return module


TINY = dict(
    total_timesteps=256, n_envs=2, n_steps=32, batch_size=32, n_epochs=1, net_arch=(16,), eval_every=64,
    eval_boards=2, final_boards=2, snapshot_every=64, pool_size=3, checkpoint_every=128, opponents=("self", "heuristic"),
    imitate="none", progress_bar=False, eval_against=("random",),
)  # fmt: skip
KINDS = {
    "single": {},
    "batched": dict(batched=16, n_envs=32, opponents=("heuristic",), n_steps=8, total_timesteps=512),
    "subproc": dict(subproc=True),
    "col_morto": dict(game="tressette_col_morto"),  # SingleAgentEnv, the other agents' players by set_others
    # FamilyVectorEnv: another game's batched engine, its batched heuristic for every other player
    "a_chiamare_batched": dict(
        game="tressette_a_chiamare", batched=16, n_envs=32, opponents=("heuristic",), n_steps=8, total_timesteps=512
    ),
}


def stopped_copy(run, steps):
    """The run's folder as a run killed after its checkpoint at ``steps`` leaves it."""
    stopped = run.parent / "stopped"
    shutil.copytree(run, stopped)
    for path in (stopped / "checkpoints").iterdir():
        if int(path.name.split("_")[1]) > steps:
            path.unlink()
    for name in ("model.zip", "policy.npz", "final.md", "curve.png"):
        (stopped / name).unlink(missing_ok=True)
    return stopped


def weights(zip_path, entry):
    with zipfile.ZipFile(zip_path) as archive:
        return torch.load(io.BytesIO(archive.read(entry)), weights_only=True)


def same_tensors(a, b):
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_tensors(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_tensors(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def env_facts(state, batched):
    """What each environment will deal and play next: its generators, the position, the legal moves."""
    if batched:
        import pickle

        env = pickle.loads(state["envs"]["vector"])
        learners = env.seats if hasattr(env, "seats") else env.agents  # TressetteVectorEnv or FamilyVectorEnv
        return [(str(env.np_random.bit_generator.state), env.action_masks().tobytes(), learners.tobytes())]
    pool = {p.pool_key: p for p in state["pool"]}
    facts = []
    for blob in state["envs"]:
        env = checkpoint()._PoolPickler.loads(blob, pool).unwrapped
        facts.append((str(env.np_random.bit_generator.state), str(env.game), env.action_masks().tobytes()))
    return facts


@pytest.mark.parametrize(
    "kind",
    [
        "single",
        "batched",
        pytest.param("subproc", marks=pytest.mark.slow),
        pytest.param("col_morto", marks=pytest.mark.slow),
        "a_chiamare_batched",
    ],
    ids=["single", "batched", "subproc", "col_morto", "a_chiamare_batched"],
)
def test_a_resumed_run_is_the_uninterrupted_run(kind, tmp_path, capsys):
    settings = {**TINY, **KINDS[kind], "run_dir": str(tmp_path)}
    whole = train(TrainConfig(**settings, run_name="whole"))
    stopped = stopped_copy(whole.run_path, 128)
    at_checkpoint = checkpoint().read_info(stopped / "checkpoints" / "model_128_steps.zip")
    resumed = train(TrainConfig(**settings, resume=str(stopped / "checkpoints" / "model_128_steps.zip")))
    assert "resuming" in capsys.readouterr().out

    # The resume wrote into the checkpoint's run, no new folder.
    assert resumed.run_path.resolve() == stopped.resolve()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stopped", "whole"]
    assert sorted(p.name for p in (stopped / "checkpoints").iterdir()) == sorted(
        p.name for p in (whole.run_path / "checkpoints").iterdir()
    )
    # The history: up to the checkpoint from the checkpoint (not the longer history.json left), then the same.
    history = [json.loads((run / "history.json").read_text()) for run in (whole.run_path, stopped)]
    assert [p["timesteps"] for p in history[1]] == [p["timesteps"] for p in history[0]]
    assert [p["results"] for p in history[1]] == [p["results"] for p in history[0]]
    assert history[0][-1]["timesteps"] == settings["total_timesteps"]  # the whole run's total, no more
    # The evaluation clock goes on from the checkpoint's seconds, it does not start again at 0.
    later = [p["seconds"] for p in history[1] if p["timesteps"] > 128]
    assert later and min(later) >= at_checkpoint["clocks"]["eval_seconds"] > 0
    # The same weights, bit for bit, and the same optimizer state.
    policies = [MLPPolicy.load(run / "policy.npz") for run in (whole.run_path, stopped)]
    for (w0, b0), (w1, b1) in zip(policies[0].layers, policies[1].layers, strict=True):
        assert np.array_equal(w0, w1) and np.array_equal(b0, b1)
    for entry in ("policy.pth", "policy.optimizer.pth"):
        assert same_tensors(weights(whole.model_path, entry), weights(resumed.model_path, entry)), entry
    # The same pool, environments and random streams at the end.
    states = [checkpoint().read_state(run / "model.zip") for run in (whole.run_path, stopped)]
    assert [p.name for p in states[0]["pool"]] == [p.name for p in states[1]["pool"]]
    assert len(states[0]["pool"]) == 3
    for a, b in zip(states[0]["pool"], states[1]["pool"], strict=True):
        assert all(np.array_equal(x, y) for (x, _), (y, _) in zip(a.policy.layers, b.policy.layers, strict=True))
    batched = "batched" in kind
    assert env_facts(states[0], batched) == env_facts(states[1], batched)
    assert states[0]["selfplay_rng"] == states[1]["selfplay_rng"]
    assert torch.equal(states[0]["rng"]["torch"], states[1]["rng"]["torch"])
    assert str(states[0]["rng"]["numpy"]) == str(states[1]["rng"]["numpy"])
    assert states[0]["rng"]["python"] == states[1]["rng"]["python"]
    clocks = [checkpoint().read_info(run / "model.zip")["clocks"] for run in (whole.run_path, stopped)]
    for clock in clocks:
        clock.pop("eval_seconds")
    assert clocks[0] == clocks[1]


def test_the_checkpoint_holds_the_pool_and_the_clocks(tmp_path):
    run = train(TrainConfig(**TINY, run_dir=str(tmp_path), run_name="r")).run_path
    path = run / "checkpoints" / "model_128_steps.zip"
    info, state = checkpoint().read_info(path), checkpoint().read_state(path)
    assert info["num_timesteps"] == 128 and info["config"]["n_envs"] == 2
    assert info["clocks"] == {
        "evaluated_at": 66, "eval_seconds": info["clocks"]["eval_seconds"], "snapshot_at": 128, "checkpoint_at": 128,
    }  # fmt: skip
    assert info["clocks"]["eval_seconds"] > 0
    assert [p["timesteps"] for p in info["history"]] == [2, 66]
    assert [p.name for p in state["pool"]] == ["snapshot@0", "snapshot@64", "snapshot@128"]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return train(TrainConfig(**TINY, run_dir=str(root), run_name="done")).run_path


def resume_error(argv, capsys, code=1):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def listing(folder):
    return sorted((str(p.relative_to(folder)), p.stat().st_mtime_ns) for p in folder.rglob("*"))


def test_a_zip_not_written_by_tressette_train_is_refused_unread(finished_run, tmp_path, capsys):
    from sb3_contrib import MaskablePPO

    from tressette_env.wrappers import SingleSeatEnv

    MaskablePPO("MlpPolicy", SingleSeatEnv(), n_steps=64, batch_size=64).save(tmp_path / "plain.zip")
    marker = tmp_path / "pwned"
    crafted = tmp_path / "crafted.zip"
    with zipfile.ZipFile(crafted, "w") as archive:  # SB3's load would run the payload in data
        archive.writestr("data", json.dumps(data_with_payload(marker)))
        archive.writestr("policy.pth", b"")
    for path in (tmp_path / "plain.zip", crafted):
        err = resume_error(["train", "--resume", str(path), "--run-dir", str(tmp_path / "runs")], capsys)
        assert err.count("\n") == 1
        assert err.startswith(f"tressette train: error: {path}: not a checkpoint written by tressette train")
        assert "unpickles it and so can run code stored in it" in err
    assert not marker.exists() and not (tmp_path / "runs").exists()
    team = tmp_path / "team_run"  # a team-play run's model.zip beside its config.json: named as what it is
    team.mkdir()
    (team / "model.zip").write_bytes((tmp_path / "plain.zip").read_bytes())
    (team / "config.json").write_text(json.dumps({"team_play": 4, "game": "tressette"}))
    err = resume_error(["train", "--resume", str(team / "model.zip"), "--run-dir", str(tmp_path / "runs")], capsys)
    assert "the model of a team-play run (its config.json: team_play=4): team-play runs keep no checkpoint" in err
    (team / "config.json").write_text("{not json")  # a config.json it cannot read: the plain refusal
    err = resume_error(["train", "--resume", str(team / "model.zip"), "--run-dir", str(tmp_path / "runs")], capsys)
    assert "not a checkpoint written by tressette train" in err


def damage(kind, good, path):
    raw = good.read_bytes()
    if kind == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif kind == "random bytes":
        path.write_bytes(np.random.default_rng(0).bytes(4000))
    elif kind in ("marker not JSON", "marker nested deep", "marker too large", "sb3 data damaged", "state damaged"):
        entry = STATE_ENTRY if kind == "state damaged" else "data" if kind == "sb3 data damaged" else INFO_ENTRY
        bad = {"marker nested deep": b"[" * 200_000, "marker too large": b" " * (2**22 + 1)}.get(kind, b"{broken")
        with zipfile.ZipFile(good) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in src.infolist():
                dst.writestr(item, bad if item.filename == entry else src.read(item.filename))


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        ("truncated", "not a readable checkpoint zip"),
        ("random bytes", "not a readable checkpoint zip"),
        ("marker not JSON", f"a damaged checkpoint: {INFO_ENTRY} is not JSON"),
        ("marker nested deep", f"a damaged checkpoint: {INFO_ENTRY} is not JSON (RecursionError"),
        ("marker too large", f"its '{INFO_ENTRY}' entry unpacks to 4194305 bytes: at most 4194304"),
        ("sb3 data damaged", "a damaged checkpoint ("),
        ("state damaged", f"a damaged checkpoint: its {STATE_ENTRY} cannot be read"),
    ],
)
def test_a_damaged_checkpoint_is_one_line_and_exit_1(kind, problem, finished_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    path = run / "checkpoints" / "model_damaged_steps.zip"
    damage(kind, finished_run / "checkpoints" / "model_128_steps.zip", path)
    before = listing(run)
    err = resume_error(["train", "--resume", str(path), "--total-timesteps", "512", "--no-progress-bar"], capsys)
    assert err.count("\n") == 1 and err.startswith(f"tressette train: error: {path}: ") and problem in err
    assert listing(run) == before  # nothing written


def test_total_timesteps_is_the_whole_runs_total(finished_run, capsys):
    path = finished_run / "checkpoints" / "model_128_steps.zip"
    err = resume_error(["train", "--resume", str(path), "--total-timesteps", "100"], capsys, code=2)
    assert "total_timesteps=100: the whole run's total, and" in err and "is already at 128 steps" in err
    assert "--total-timesteps 228 for 100 more" in err


def test_a_checkpoint_resumes_only_in_its_game(finished_run, tmp_path, capsys):
    path = finished_run / "checkpoints" / "model_128_steps.zip"
    argv = ["train", "--resume", str(path), "--total-timesteps", "512", "--run-dir", str(tmp_path / "runs")]
    err = resume_error([*argv, "--game", "tressette_in_due"], capsys, code=2)
    assert err.splitlines()[-1] == (
        f"tressette train: error: game='tressette_in_due': {path} is a checkpoint of tressette (its policy takes "
        "that game's observation and actions); resume it with --game tressette"
    )
    assert not (tmp_path / "runs").exists()
    # A checkpoint written before the game was recorded is of the four-seat game: it resumes there.
    assert checkpoint().read_info(path)["config"]["game"] == "tressette"
    older = tmp_path / "older.zip"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(older, "w") as dst:
        for item in src.infolist():
            raw = src.read(item.filename)
            if item.filename == INFO_ENTRY:
                info = json.loads(raw)
                del info["config"]["game"]
                raw = json.dumps(info)
            dst.writestr(item, raw)
    capsys.readouterr()
    train(TrainConfig(**TINY, resume=str(older), run_dir=str(tmp_path), run_name="older"))
    out = capsys.readouterr().out
    assert "resuming" in out and "differ from the checkpoint's run" not in out  # its environments go on
    with pytest.raises(ValueError, match="is a checkpoint of tressette"):
        TrainConfig(**{**TINY, "total_timesteps": 512}, game="tressette_col_morto", resume=str(older)).check()


def test_other_environment_settings_get_new_deals(finished_run, tmp_path, capsys):
    from tressette_env.training.train import _env_seeds

    # Seeds of the new environments are drawn apart from the first run's seed + i.
    assert _env_seeds(0, 4, None) == [0, 1, 2, 3]
    fresh = _env_seeds(0, 4, 128)
    assert len(set(fresh)) == 4 and not set(fresh) & set(range(100)) and fresh == _env_seeds(0, 4, 128)
    settings = {**TINY, "n_envs": 4, "run_dir": str(tmp_path), "run_name": "wider", "total_timesteps": 384}
    result = train(TrainConfig(**settings, resume=str(finished_run / "checkpoints" / "model_128_steps.zip")))
    out = capsys.readouterr().out
    assert "n_envs differ from the checkpoint's run: new environments and random streams" in out
    assert [p["timesteps"] for p in result.history][:2] == [2, 66]  # the checkpoint's history goes on
    assert result.history[-1]["timesteps"] == 384
    state = checkpoint().read_state(result.model_path)
    assert [p.name for p in state["pool"]] == ["snapshot@256", "snapshot@320", "snapshot@384"]


class Bar:
    """Stands in for SB3's tqdm bar: records its total and its updates."""

    made = []

    def __init__(self, total):
        self.total, self.done = total, 0
        Bar.made.append(self)

    def update(self, n):
        self.done += n

    def refresh(self):
        pass

    def close(self):
        pass


def test_the_progress_bar_and_the_total_agree(tmp_path, monkeypatch, capsys):
    import stable_baselines3.common.callbacks as sb3_callbacks

    monkeypatch.setattr(sb3_callbacks, "tqdm", Bar)
    Bar.made.clear()
    settings = {**TINY, "total_timesteps": 300, "progress_bar": True, "run_dir": str(tmp_path)}  # rollouts of 64
    result = train(TrainConfig(**settings, run_name="bar"))
    assert [(b.total, b.done) for b in Bar.made] == [(320, 320)]
    out = capsys.readouterr().out
    assert out.count("total_timesteps=300 rounded up to 320: PPO trains in whole rollouts of 32 steps x 2") == 1
    assert result.history[-1]["timesteps"] == 320
    # A resume's bar counts the steps left.
    train(
        TrainConfig(
            **{**settings, "total_timesteps": 320}, resume=str(result.run_path / "checkpoints" / "model_128_steps.zip")
        )
    )
    assert [(b.total, b.done) for b in Bar.made][1:] == [(192, 192)]


def test_history_training_saves_a_history_policy_and_resumes_only_with_history(finished_run, tmp_path, capsys):
    settings = {**TINY, "run_dir": str(tmp_path), "imitate": "heuristic", "imitation_decisions": 400}
    result = train(TrainConfig(**settings, history=True, imitation_epochs=1, run_name="h"))
    policy = MLPPolicy.load(result.policy_path)
    assert policy.observation == "history" and policy.layers[0][0].shape[1] == 1460
    assert json.loads((result.run_path / "config.json").read_text())["history"] is True
    path = result.run_path / "checkpoints" / "model_128_steps.zip"
    argv = ["train", "--resume", str(path), "--total-timesteps", "512", "--run-dir", str(tmp_path / "again")]
    err = resume_error(argv, capsys, code=2)
    assert err.splitlines()[-1] == (
        f"tressette train: error: history=False: {path} was trained on the history observation (its policy "
        "takes that observation's entries); resume it with --history"
    )
    default = finished_run / "checkpoints" / "model_128_steps.zip"
    with pytest.raises(ValueError, match="was trained on the default observation.*--no-history"):
        TrainConfig(**{**TINY, "total_timesteps": 512}, history=True, resume=str(default)).check()
    train(TrainConfig(**{**settings, "total_timesteps": 512}, history=True, resume=str(path), run_name="h2"))
    assert MLPPolicy.load(tmp_path / "h2" / "policy.npz").observation == "history"
