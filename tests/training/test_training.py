"""Training with SB3: masks through VecEnvs, the exported policy, a smoke run that saves, loads and evaluates."""

import json
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv  # noqa: E402

from tressette_env.agents.registry import make_player  # noqa: E402
from tressette_env.cli import main  # noqa: E402
from tressette_env.engine import legal_actions  # noqa: E402
from tressette_env.evaluation import duplicate  # noqa: E402
from tressette_env.learned import MLPPlayer, MLPPolicy  # noqa: E402
from tressette_env.training import TrainConfig, train  # noqa: E402
from tressette_env.training.export import policy_from_sb3  # noqa: E402

from .envs import make_env  # noqa: E402


@pytest.mark.parametrize("vec_cls", [DummyVecEnv, SubprocVecEnv], ids=["dummy", "subproc"])
def test_masks_reach_maskable_ppo_through_vec_envs(vec_cls):
    venv = vec_cls([make_env(i) for i in range(2)])
    try:
        venv.reset()
        for _ in range(5):
            masks = get_action_masks(venv)
            games = venv.get_attr("game")
            for mask, game in zip(masks, games, strict=True):
                assert np.flatnonzero(mask).tolist() == legal_actions(game)
            venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    finally:
        venv.close()


def test_exported_policy_has_the_same_logits_as_the_sb3_policy():
    model = MaskablePPO("MlpPolicy", DummyVecEnv([make_env(0)]), policy_kwargs={"net_arch": [32, 16]}, seed=0)
    exported = policy_from_sb3(model)
    obs = np.random.default_rng(0).integers(0, 2, size=(5, 790)).astype(np.float32)
    with torch.no_grad():
        tensor = torch.as_tensor(obs)
        latent = model.policy.mlp_extractor.forward_actor(
            model.policy.extract_features(tensor, model.policy.pi_features_extractor)
        )
        expected = model.policy.action_net(latent).numpy()
    assert np.allclose(exported.logits(obs), expected, atol=1e-5)


def test_smoke_training_saves_loads_evaluates_and_resumes(tmp_path, capsys):
    config = TrainConfig(
        total_timesteps=512, n_envs=4, n_steps=64, batch_size=128, net_arch=(32, 32), eval_every=256,
        eval_boards=4, final_boards=4, snapshot_every=256, checkpoint_every=256, run_dir=str(tmp_path),
        run_name="smoke", progress_bar=False, imitation_decisions=2000, imitation_epochs=1,
    )  # fmt: skip
    result = train(config)
    run = tmp_path / "smoke"
    for name in ("model.zip", "policy.npz", "history.json", "final.md", "config.json"):
        assert (run / name).exists(), name
    history = json.loads((run / "history.json").read_text())
    assert [p["timesteps"] for p in history][-1] >= 512 and {"random", "heuristic"} <= set(history[-1]["results"])
    assert set(result.final) == {"random", "heuristic"}
    for path in (result.model_path, result.policy_path):
        player = make_player(str(path))
        outcome = duplicate(player, make_player("random"), boards=3, seed=0, workers=1, progress=False)
        assert outcome.boards == 3
    checkpoints = sorted((run / "checkpoints").glob("*.zip"))
    assert checkpoints
    assert json.loads((run / "config.json").read_text())["learning_rate"] == 3e-4
    # The model settings given with resume are ignored: the run records the checkpoint's. total_timesteps is
    # the whole run's: 256 more steps after the checkpoint's 512.
    other = {"learning_rate": 0.01, "ent_coef": 0.5, "n_steps": 16, "batch_size": 32, "n_epochs": 2,
             "gamma": 0.5, "gae_lambda": 0.5, "net_arch": (8,), "bf16_update": True}  # fmt: skip
    resumed = train(
        TrainConfig(**{**config.__dict__, **other, "total_timesteps": 768, "resume": str(checkpoints[-1]),
                       "run_name": "resumed"})
    )  # fmt: skip
    model = MaskablePPO.load(resumed.model_path)
    assert model.num_timesteps == 768 and model.n_steps == 64 and model.learning_rate == 3e-4
    assert not model.policy.bf16_update
    kept = {"learning_rate": 3e-4, "ent_coef": 0.01, "n_steps": 64, "batch_size": 128, "n_epochs": 4,
            "gamma": 1.0, "gae_lambda": 0.95, "net_arch": [32, 32], "imitate": None, "bf16_update": False}  # fmt: skip
    for recorded in (
        json.loads((tmp_path / "resumed" / "config.json").read_text()),
        MLPPolicy.load(resumed.policy_path).info["config"],
    ):
        assert {k: recorded[k] for k in kept} == kept
    assert "the model settings come from the checkpoint (learning_rate=0.0003, n_steps=64" in capsys.readouterr().out
    assert not (tmp_path / "resumed" / "imitation.json").exists()


def test_a_run_s_policy_takes_bf16_update_from_its_config():
    from tressette_env.cli import build_parser
    from tressette_env.training.config import policy_kwargs

    assert policy_kwargs(TrainConfig(net_arch=(8, 4))) == {"net_arch": [8, 4]}
    assert policy_kwargs(TrainConfig(net_arch=(8,), bf16_update=True)) == {"net_arch": [8], "bf16_update": True}
    assert build_parser().parse_args(["train", "--bf16-update"]).bf16_update is True
    assert build_parser().parse_args(["train"]).bf16_update is False
    with pytest.raises(ValueError, match="bf16_update='no': must be True or False"):
        TrainConfig(bf16_update="no").check()
    with pytest.raises(ValueError, match="history=1: must be True or False"):
        TrainConfig(history=1).check()


def test_missing_packages_are_named_before_training(tmp_path, monkeypatch):
    config = TrainConfig(run_dir=str(tmp_path / "runs"), imitate="none")
    config.check()
    monkeypatch.setitem(sys.modules, "rich", None)
    with pytest.raises(ImportError, match=r"the progress bar needs tqdm and rich: pip install tqdm rich, or --no-pro"):
        train(config)
    TrainConfig(progress_bar=False).check()
    monkeypatch.setitem(sys.modules, "tensorboard", None)
    with pytest.raises(ImportError, match="TensorBoard logging needs tensorboard: pip install tensorboard"):
        train(TrainConfig(run_dir=str(tmp_path / "runs"), progress_bar=False, tensorboard=True))
    with pytest.raises(ValueError, match="resume='nowhere.zip': no checkpoint file there"):
        train(TrainConfig(run_dir=str(tmp_path / "runs"), progress_bar=False, resume="nowhere.zip"))
    assert list(tmp_path.iterdir()) == []


def test_cli_train_smoke(tmp_path, capsys):
    status = main(
        [
            "train", "--total-timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
            "--net-arch", "16", "--imitation-decisions", "2000", "--imitation-epochs", "1", "--eval-every", "0", "--final-boards", "2", "--eval-against", "random",
            "--run-dir", str(tmp_path), "--run-name", "cli", "--tensorboard", "--rule", "accusi=false",
        ]
    )  # fmt: skip
    assert status == 0  # with the progress bar on, as in the README's main command: the train extra holds rich
    assert any((tmp_path / "cli" / "tensorboard").rglob("events.out.tfevents.*"))
    assert "| learner | random | 2 |" in capsys.readouterr().out
    assert json.loads((tmp_path / "cli" / "config.json").read_text())["rules"] == {"accusi": False}


@pytest.mark.parametrize("partner", ["self", "random"])
def test_batched_training_runs_and_plays_the_snapshot_as_partner(partner, tmp_path, monkeypatch):
    from tressette_env.vector.env import TressetteVectorEnv

    seen = []
    step, reset = TressetteVectorEnv.step, TressetteVectorEnv.reset

    def spy_step(env, actions):  # which partner the batched environment plays, step by step
        seen.append(env.partner)
        return step(env, actions)

    def spy_reset(env, **kwargs):
        seen.append(env.partner)
        return reset(env, **kwargs)

    monkeypatch.setattr(TressetteVectorEnv, "step", spy_step)
    monkeypatch.setattr(TressetteVectorEnv, "reset", spy_reset)
    config = TrainConfig(
        total_timesteps=1024, batched=16, n_steps=16, batch_size=128, net_arch=(16,), partner=partner,
        imitate="none", snapshot_every=256, eval_every=512, eval_boards=2, final_boards=2, progress_bar=False,
        eval_against=("random",), checkpoint_every=512, run_dir=str(tmp_path), run_name="batched",
    )  # fmt: skip
    result = train(config)
    model = MaskablePPO.load(result.model_path)
    assert model.num_timesteps == 1024 and model.n_envs == 16
    checkpoints = sorted(p.name for p in (tmp_path / "batched" / "checkpoints").iterdir())
    assert checkpoints == ["model_1024_steps.zip", "model_512_steps.zip"]  # every 512 learner steps
    assert [p["timesteps"] for p in result.history] == [16, 528, 1024]  # every 512 steps, in steps of 16
    if partner == "self":  # a snapshot from the first reset on, refreshed every snapshot_every steps
        snapshots = [p for p in seen if callable(p)]
        assert len(snapshots) == len(seen) and len({id(p.__self__) for p in snapshots}) >= 4
    else:
        assert set(seen) == {"random"}


def test_best_actions_are_the_deterministic_players_choices():
    policy = MLPPolicy.random(hidden=(16,), seed=3)
    rng = np.random.default_rng(3)
    obs = rng.integers(0, 2, size=(50, 790)).astype(np.int8)
    masks = rng.random((50, 161)) < 0.05
    masks[:, 7] = True
    chosen = policy.best_actions(obs, masks)
    logits = policy.logits(obs)
    for row, action in enumerate(chosen):
        legal = np.flatnonzero(masks[row])
        assert action == legal[np.argmax(logits[row, legal])]


def test_mlp_policy_round_trips_and_rejects_bad_shapes(tmp_path):
    policy = MLPPolicy.random(hidden=(8,), seed=1)
    path = policy.save(tmp_path / "p.npz")
    again = MLPPolicy.load(path)
    obs = np.ones(790)
    assert np.allclose(policy.logits(obs), again.logits(obs))
    with pytest.raises(ValueError, match="maps the 790 observation entries to 161 action logits"):
        MLPPolicy([(np.zeros((161, 10)), np.zeros(161))])
    player = MLPPlayer(path, deterministic=False)
    assert player.name == "mlp"


def test_an_exported_policy_does_not_follow_later_training():
    """A self-play snapshot is the learner as it was: its arrays are copies, not views of the live weights."""
    model = MaskablePPO(
        "MlpPolicy", DummyVecEnv([make_env(0)]), n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]}
    )
    snapshot = policy_from_sb3(model)
    before = [(w.copy(), b.copy()) for w, b in snapshot.layers]
    model.learn(64)
    assert all(
        np.array_equal(w, w0) and np.array_equal(b, b0)
        for (w, b), (w0, b0) in zip(snapshot.layers, before, strict=True)
    )
    assert not np.array_equal(policy_from_sb3(model).layers[0][0], before[0][0])


def test_batched_family_training_refuses_a_game_without_a_batched_engine():
    from tests.games import toy  # registers its game (no batched engine) through the catalog alone

    config = TrainConfig(game=toy.ENTRY.name, batched=16, opponents=("random",), imitate="none")
    with pytest.raises(
        ValueError, match=f"batched=16: {toy.ENTRY.name} has no batched engine; games with one: tressette"
    ):
        config.check()


def test_batched_family_training_against_a_heuristic_that_is_not_batched_is_refused(monkeypatch):
    from tressette_env import catalog

    monkeypatch.delattr(catalog.entry("calabresella").batch_type(), "heuristic_actions")
    config = TrainConfig(game="calabresella", batched=16, opponents=("heuristic",), imitate="none")
    with pytest.raises(ValueError, match="batched=16: calabresella's heuristic is not batched yet; --opponents random"):
        config.check()


def test_eval_every_zero_evaluates_at_the_first_step_only_and_every_n_otherwise():
    from tressette_env.training.callbacks import DuplicateEvalCallback, EvalPoint

    for every, expected in ((0, [8]), (400, [8, 1000, 5000])):
        callback = DuplicateEvalCallback(every, ["random"], 2, rules=None)
        seen = []

        def evaluate(callback=callback, seen=seen):
            seen.append(callback.num_timesteps)
            callback.history.append(EvalPoint(callback.num_timesteps, 0.0))

        callback.evaluate_now = evaluate
        for steps in (8, 16, 1000, 1016, 5000):
            callback.num_timesteps = steps
            callback._on_step()
        assert seen == expected, every
