"""A rollout whose size leaves one sample after its whole minibatches: no NaN (``training.minibatches``)."""

import base64
import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from tressette_env.training.masking import MaskablePolicy  # noqa: E402
from tressette_env.training.minibatches import NoSingleSampleBuffer, without_single_samples  # noqa: E402
from tressette_env.wrappers import SingleSeatEnv  # noqa: E402


def sizes(buffer_class, samples: int, batch_size: int) -> list[int]:
    env = SingleSeatEnv()
    buffer = buffer_class(samples, env.observation_space, env.action_space, n_envs=1)
    buffer.full = True
    np.random.seed(0)
    return [len(batch.advantages) for batch in buffer.get(batch_size)]


def test_the_minibatch_of_one_sample_is_left_out_and_every_other_is_sb3_contrib_s():
    assert sizes(MaskableRolloutBuffer, 32, 31) == [31, 1]
    assert sizes(NoSingleSampleBuffer, 32, 31) == [31] and sizes(NoSingleSampleBuffer, 33, 16) == [16, 16]
    for samples, batch_size in [(32, 16), (32, 30), (34, 16), (64, 64)]:  # no minibatch of one: the same
        assert sizes(NoSingleSampleBuffer, samples, batch_size) == sizes(MaskableRolloutBuffer, samples, batch_size)


@pytest.mark.parametrize("ours", [False, True])
def test_two_environments_of_16_steps_in_minibatches_of_31(ours, tmp_path):
    venv = DummyVecEnv([lambda: SingleSeatEnv(opponents="random", partner="random")] * 2)
    model = MaskablePPO(MaskablePolicy, venv, n_steps=16, batch_size=31, n_epochs=2, seed=0)
    if not ours:  # sb3-contrib's buffer: the minibatch of one makes the weights NaN
        with pytest.raises(ValueError, match="NaN"), pytest.warns(UserWarning, match="degrees of freedom"):
            model.learn(96)
        return
    assert without_single_samples(model) is model and type(model.rollout_buffer) is NoSingleSampleBuffer
    model.learn(96)
    assert all(torch.isfinite(p).all() for p in model.policy.parameters())
    # The saved file names sb3-contrib's buffer class: it loads where this package is not installed.
    model.save(tmp_path / "m.zip")
    with zipfile.ZipFile(tmp_path / "m.zip") as archive:
        data = json.loads(archive.read("data"))["rollout_buffer_class"]
    assert "minibatches" not in base64.b64decode(data[":serialized:"]).decode("latin-1")
