"""``examples/cleanrl_ppo.py``: the CleanRL-style loop runs, plays legal actions only, and exports the actor it trained."""

import runpy
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

EXAMPLE = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "cleanrl_ppo.py"), run_name="example")


def test_the_masked_actor_samples_legal_actions_only_and_exports_as_it_is():
    agent = EXAMPLE["Agent"](790, 161, 16)
    rng = np.random.default_rng(0)
    mask = torch.tensor(rng.random((512, 161)) < 0.05)
    mask[:, 7] = True
    obs = torch.tensor(rng.integers(0, 2, (512, 790)), dtype=torch.float32)
    action, _, _, _ = agent.act(obs, mask)
    assert mask[torch.arange(512), action].all()
    policy = agent.policy()
    with torch.no_grad():
        expected = agent.actor(obs).numpy()
    assert np.allclose(policy.logits(obs.numpy()), expected, atol=1e-5)


def test_the_example_trains_and_plays_the_duplicate_evaluation(capsys):
    figures = EXAMPLE["main"](["--total-timesteps", "2048", "--num-envs", "32", "--num-steps", "32", "--boards", "4"])
    out = capsys.readouterr().out
    assert "2 updates of 1024 learner steps" in out and "update    2  learner steps     2048" in out
    assert "| random |" in out and "| heuristic |" in out
    assert set(figures) == {"random", "heuristic"} and all(r.boards == 4 for r in figures.values())
