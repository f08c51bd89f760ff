"""The stable-baselines3 adapter (skipped without stable-baselines3; MaskablePPO needs sb3-contrib)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from tressette_env.vector import TressetteVectorEnv, sample_mask  # noqa: E402
from tressette_env.vector.sb3 import SB3VecEnv  # noqa: E402


def test_the_vecenv_interface():
    venv = SB3VecEnv(num_envs=8, seed=0)
    assert isinstance(venv, VecEnv) and venv.num_envs == 8
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (8, 790)
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (8, 161) and masks.dtype == bool
    assert len(venv.get_attr("action_masks")) == 8
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(12):
        masks = np.stack(venv.env_method("action_masks"))
        actions = sample_mask(masks, rng)
        obs, rewards, dones, infos = venv.step(actions)
        assert len(infos) == 8 and obs.shape == (8, 790)
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (790,)
            assert infos[i]["TimeLimit.truncated"] is False
            ended += 1
    assert ended >= 8
    assert venv.env_is_wrapped(object) == [False] * 8
    venv.close()


def test_another_game_by_name_is_its_family_vector_env():
    from tressette_env.vector import FamilyVectorEnv

    venv = SB3VecEnv(num_envs=4, game="calabresella", others="heuristic", seed=0)
    twin = SB3VecEnv(FamilyVectorEnv(4, "calabresella", others="heuristic", seed=0))
    assert isinstance(venv.env, FamilyVectorEnv) and venv.env.game == "calabresella"
    assert np.array_equal(venv.reset(), twin.reset())
    assert venv.action_masks().shape == (4, 255) and np.array_equal(venv.action_masks(), twin.action_masks())
    with pytest.raises(TypeError, match="needs num_envs"):
        SB3VecEnv(game="calabresella")
    with pytest.raises(TypeError, match="not both"):
        SB3VecEnv(venv.env, game="calabresella")
    with pytest.raises(ValueError, match="unknown game 'briscola'"):
        SB3VecEnv(num_envs=2, game="briscola")


@pytest.mark.slow
def test_maskable_ppo_learns_a_few_steps():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    venv = SB3VecEnv(TressetteVectorEnv(8, seed=0))
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(8), actions].all()
