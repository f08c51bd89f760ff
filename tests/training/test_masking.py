"""The log_softmax masked distribution and policy give sb3-contrib's numbers: probabilities, entropies, gradients."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.distributions import (  # noqa: E402
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from tressette_env.training.masking import (  # noqa: E402
    LogSoftmaxMaskableCategorical,
    LogSoftmaxMaskableCategoricalDistribution,
    MaskablePolicy,
)

from .envs import make_env  # noqa: E402


def logits_and_masks(seed, rows=64, actions=161, scale=5.0):
    """Random logits and masks with one to twelve legal actions per row (as in Tressette)."""
    rng = np.random.default_rng(seed)
    logits = torch.tensor(rng.normal(0, scale, (rows, actions)), dtype=torch.float32)
    masks = np.zeros((rows, actions), dtype=bool)
    for row in masks:
        row[rng.choice(actions, size=rng.integers(1, 13), replace=False)] = True
    return logits, masks


def both(logits, masks):
    """sb3-contrib's distribution and ours over copies of the same logits (each with its own grad)."""
    theirs_in = logits.clone().requires_grad_(True)
    ours_in = logits.clone().requires_grad_(True)
    return (
        theirs_in,
        MaskableCategorical(logits=theirs_in, masks=masks),
        ours_in,
        LogSoftmaxMaskableCategorical(logits=ours_in, masks=masks),
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([0.01, 1.0, 30.0]))
def test_log_probs_entropy_mode_and_gradients_equal_sb3_contrib(seed, scale):
    logits, masks = logits_and_masks(seed, scale=scale)
    theirs_in, theirs, ours_in, ours = both(logits, masks)
    actions = torch.tensor([np.flatnonzero(m)[i % m.sum()] for i, m in enumerate(masks)])
    assert torch.allclose(ours.log_prob(actions), theirs.log_prob(actions), atol=1e-5)
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-5)
    assert torch.allclose(ours.probs, theirs.probs, atol=1e-6)
    assert torch.equal(ours.probs.argmax(-1), theirs.probs.argmax(-1))
    assert torch.all(ours.probs[~torch.as_tensor(masks)] == 0)
    # The PPO loss's two terms: log-probability of the taken actions and entropy.
    (theirs.log_prob(actions).sum() + 0.01 * theirs.entropy().sum()).backward()
    (ours.log_prob(actions).sum() + 0.01 * ours.entropy().sum()).backward()
    assert torch.allclose(ours_in.grad, theirs_in.grad, atol=1e-5)
    assert ours_in.grad[~torch.as_tensor(masks)].abs().max() < 1e-6  # 0 up to the rounding of both


def test_samples_are_legal_and_masking_can_be_removed():
    logits, masks = logits_and_masks(1, rows=256)
    dist = LogSoftmaxMaskableCategorical(logits=logits, masks=masks)
    torch.manual_seed(0)
    for _ in range(20):
        sample = dist.sample().numpy()
        assert masks[np.arange(len(masks)), sample].all()
    dist.apply_masking(None)
    assert dist.masks is None
    assert torch.allclose(dist.probs, torch.softmax(logits, -1), atol=1e-6)
    dist.apply_masking(masks)  # masks again, from the original logits
    assert torch.all(dist.probs[~torch.as_tensor(masks)] == 0)


def test_masking_again_starts_from_the_original_logits():
    logits, first = logits_and_masks(3)
    _, second = logits_and_masks(4)
    dist = LogSoftmaxMaskableCategorical(logits=logits, masks=first)
    _ = dist.probs  # cached, then dropped by the next masking
    dist.apply_masking(second)
    fresh = LogSoftmaxMaskableCategorical(logits=logits, masks=second)
    reference = MaskableCategorical(logits=logits, masks=second)
    assert torch.allclose(dist.logits, fresh.logits) and torch.allclose(dist.probs, fresh.probs)
    assert torch.allclose(dist.probs, reference.probs, atol=1e-6)


def test_a_row_with_every_action_masked_is_uniform_and_normalised():
    logits, masks = logits_and_masks(5, rows=4)
    masks[2] = False
    ours = LogSoftmaxMaskableCategorical(logits=logits, masks=masks)
    theirs = MaskableCategorical(logits=logits, masks=masks)
    uniform = torch.full((161,), 1 / 161)
    assert torch.allclose(ours.probs[2], uniform) and torch.allclose(theirs.probs[2], uniform)
    # Ours are normalised log-probabilities; sb3-contrib's float32 logsumexp leaves -8.0 there.
    assert torch.allclose(ours.logits[2], torch.log(uniform))
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-6)  # masked entries count 0 in both


def test_nan_logits_are_still_refused():
    logits, masks = logits_and_masks(2)
    logits[3, 5] = float("nan")
    with pytest.raises(ValueError, match="logits"):
        LogSoftmaxMaskableCategorical(logits=logits, masks=masks, validate_args=True)


def test_policy_evaluates_actions_as_the_sb3_contrib_policy_with_the_same_weights():
    venv = DummyVecEnv([make_env(0)])
    kwargs = {"net_arch": [32, 16]}
    ours = MaskablePPO(MaskablePolicy, venv, policy_kwargs=kwargs, seed=0).policy
    theirs = MaskablePPO("MlpPolicy", venv, policy_kwargs=kwargs, seed=1).policy
    assert type(theirs) is MaskableActorCriticPolicy
    assert type(ours.action_dist) is LogSoftmaxMaskableCategoricalDistribution
    assert type(theirs.action_dist) is MaskableCategoricalDistribution
    theirs.load_state_dict(ours.state_dict())
    obs, masks, actions = [], [], []
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        mask = get_action_masks(venv)
        obs.append(venv.buf_obs[None].copy()[0])
        masks.append(mask[0])
        action = rng.choice(np.flatnonzero(mask[0]))
        actions.append(action)
        venv.step(np.array([action]))
    obs_t = torch.as_tensor(np.array(obs), dtype=torch.float32)
    actions_t = torch.as_tensor(np.array(actions))
    masks_a = np.array(masks)
    with torch.no_grad():
        v1, lp1, e1 = ours.evaluate_actions(obs_t, actions_t, action_masks=masks_a)
        v2, lp2, e2 = theirs.evaluate_actions(obs_t, actions_t, action_masks=masks_a)
        assert torch.allclose(v1, v2) and torch.allclose(lp1, lp2, atol=1e-5) and torch.allclose(e1, e2, atol=1e-5)
        deterministic_ours = ours.predict(np.array(obs), action_masks=masks_a, deterministic=True)[0]
        deterministic_theirs = theirs.predict(np.array(obs), action_masks=masks_a, deterministic=True)[0]
    assert np.array_equal(deterministic_ours, deterministic_theirs)
    assert masks_a[np.arange(len(masks_a)), deterministic_ours].all()


def test_model_with_the_policy_learns_saves_and_loads(tmp_path):
    venv = DummyVecEnv([make_env(0)])
    model = MaskablePPO(MaskablePolicy, venv, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", env=venv)
    assert type(loaded.policy) is MaskablePolicy
    # A checkpoint saved with sb3-contrib's policy can be resumed with ours (what `tressette train --resume` does).
    MaskablePPO("MlpPolicy", venv, seed=0).save(tmp_path / "plain.zip")
    resumed = MaskablePPO.load(tmp_path / "plain.zip", env=venv, custom_objects={"policy_class": MaskablePolicy})
    assert type(resumed.policy) is MaskablePolicy
    assert type(resumed.policy.action_dist) is LogSoftmaxMaskableCategoricalDistribution
