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
    fast_adam_kwargs,
    inverse_cdf,
    masked_log_prob_and_entropy,
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


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([0.01, 1.0, 30.0]))
def test_the_update_s_log_probs_and_entropies_equal_sb3_contrib_with_their_gradients(seed, scale):
    logits, masks = logits_and_masks(seed, scale=scale)
    masks[0] = False  # a row masked whole: uniform, entropy 0 (masked entries count 0)
    masks[1] = False
    masks[1, 7] = True  # a row with one legal action: log-probability 0, entropy 0
    actions = torch.tensor([np.flatnonzero(m)[i % m.sum()] if m.any() else 3 for i, m in enumerate(masks)])
    theirs_in, theirs, ours_in, distribution = both(logits, masks)
    log_prob, entropy = masked_log_prob_and_entropy(ours_in, masks, actions)
    assert torch.allclose(log_prob, distribution.log_prob(actions), atol=1e-5)
    assert torch.allclose(log_prob[1:], theirs.log_prob(actions)[1:], atol=1e-5)  # row 0: -log 161, theirs -8.0
    assert torch.allclose(entropy, theirs.entropy(), atol=1e-5)
    assert entropy[0] == 0 and entropy[1] == 0 and log_prob[1] == 0
    # The PPO loss's two terms, with a weight that differs by row so that no gradient cancels by symmetry.
    weights = torch.linspace(0.5, 1.5, len(masks))
    (weights * (theirs.log_prob(actions) + 0.01 * theirs.entropy())).sum().backward()
    (weights * (log_prob + 0.01 * entropy)).sum().backward()
    assert torch.allclose(ours_in.grad, theirs_in.grad, atol=1e-5)
    assert torch.all(ours_in.grad[~torch.as_tensor(masks)] == 0)  # the masked logits get no gradient


def test_the_update_s_numbers_validate_as_the_distribution_does():
    logits, masks = logits_and_masks(13, rows=3)
    with pytest.raises(ValueError, match="support"):
        masked_log_prob_and_entropy(logits, masks, torch.tensor([0, 1, 161]))
    with pytest.raises(ValueError, match="support"):
        masked_log_prob_and_entropy(logits, masks, torch.tensor([0, -1, 1]))
    for bad in (float("nan"), float("inf")):  # masked or not, as the distribution refuses them
        for row, column in ((2, int(np.flatnonzero(masks[2])[0])), (2, int(np.flatnonzero(~masks[2])[0]))):
            spoilt = logits.clone()
            spoilt[row, column] = bad
            with pytest.raises(ValueError, match="NaN"):
                masked_log_prob_and_entropy(spoilt, masks, torch.tensor([0, 1, 2]))
            with pytest.raises(ValueError, match="NaN"):
                LogSoftmaxMaskableCategorical(logits=spoilt, masks=masks)
    with pytest.raises(ValueError, match="one action per row"):
        masked_log_prob_and_entropy(logits, masks, torch.tensor([0, 1]))
    masks_half = masks.copy()
    masks_half[1] = False  # -1e8 is -inf in float16: the row normalises to NaN after masking only
    with pytest.raises(ValueError, match="distribution LogSoftmaxMaskableCategorical to hold no NaN"):
        masked_log_prob_and_entropy(logits.half(), masks_half, torch.tensor([0, 1, 2]))
    logits[1, 4] = -float("inf")  # an impossible action: accepted, as by the distribution
    masked_log_prob_and_entropy(logits, masks, torch.tensor([0, 1, 2]))
    logits[2, 4] = float("nan")
    torch.distributions.Distribution.set_default_validate_args(False)
    try:  # with torch's validation off, as the distribution: no check
        masked_log_prob_and_entropy(logits, masks, torch.tensor([0, 1, 2]))
    finally:
        torch.distributions.Distribution.set_default_validate_args(True)


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


@pytest.mark.parametrize("validate_args", [None, True])
def test_nan_logits_are_still_refused(validate_args):
    logits, masks = logits_and_masks(2)
    logits[3, 5] = float("nan")
    with pytest.raises(ValueError, match="logits"):
        LogSoftmaxMaskableCategorical(logits=logits, masks=masks, validate_args=validate_args)
    with pytest.raises(ValueError, match="logits"):  # sb3-contrib refuses them too
        MaskableCategorical(logits=logits, masks=masks, validate_args=validate_args)


def test_infinite_logits_are_refused_or_accepted_as_torch_does():
    logits, masks = logits_and_masks(2)
    logits[3, 5], logits[4, 6] = -float("inf"), -float("inf")  # an impossible action: accepted
    MaskableCategorical(logits=logits, masks=masks)
    LogSoftmaxMaskableCategorical(logits=logits, masks=masks)
    logits[4, 7] = float("inf")  # normalising gives inf - inf = NaN: refused
    with pytest.raises(ValueError, match="logits"):
        MaskableCategorical(logits=logits, masks=masks)
    with pytest.raises(ValueError, match="logits"):
        LogSoftmaxMaskableCategorical(logits=logits, masks=masks)


def test_validation_off_skips_the_nan_check_as_torch_does():
    logits, masks = logits_and_masks(2)
    logits[3, 5] = float("nan")
    LogSoftmaxMaskableCategorical(logits=logits, masks=masks, validate_args=False)
    MaskableCategorical(logits=logits, masks=masks, validate_args=False)


def test_samples_follow_the_masked_probabilities():
    logits, masks = logits_and_masks(7, rows=6, scale=1.0)
    draws = 20_000
    dist = LogSoftmaxMaskableCategorical(logits=logits.repeat(draws, 1), masks=np.tile(masks, (draws, 1)))
    torch.manual_seed(0)
    samples = dist.sample().reshape(draws, 6).numpy()
    probs = MaskableCategorical(logits=logits, masks=masks).probs.numpy()
    for row in range(6):
        frequencies = np.bincount(samples[:, row], minlength=161) / draws
        sigma = np.sqrt(probs[row] * (1 - probs[row]) / draws)
        assert np.all(np.abs(frequencies - probs[row]) <= 5 * sigma + 1e-9), row


def test_inverse_cdf_never_returns_an_action_of_probability_zero():
    probs = torch.tensor([[0.0, 0.25, 0.0, 0.75, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.1, 0.0, 0.4, 0.0]])
    # 1.0 stands for a uniform that float rounding carried up to the total; the last row sums to 0.5.
    for uniform, expected in (
        (0.0, [1, 2, 1]),
        (0.1999, [1, 2, 1]),
        (0.2001, [1, 2, 3]),
        (0.2499, [1, 2, 3]),
        (0.25, [3, 2, 3]),
        (0.9999, [3, 2, 3]),
        (1.0, [3, 2, 3]),
    ):
        assert inverse_cdf(probs, torch.full((3, 1), uniform)).tolist() == expected, uniform
    assert inverse_cdf(torch.full((1, 5), float("nan")), torch.zeros((1, 1))).item() in range(5)


def test_one_row_samples_a_scalar_as_torch_does():
    logits, masks = logits_and_masks(9, rows=1)
    ours = LogSoftmaxMaskableCategorical(logits=logits[0], masks=masks[0])
    theirs = MaskableCategorical(logits=logits[0], masks=masks[0])
    sample = ours.sample()
    assert sample.shape == theirs.sample().shape == () and sample.dtype == torch.int64
    assert masks[0][sample.item()]


def test_log_prob_validates_actions_as_sb3_contrib_does():
    logits, masks = logits_and_masks(10, rows=3)
    out_of_range = torch.tensor([0, 1, 161])
    for validate_args in (None, True):
        for dist in (
            MaskableCategorical(logits=logits, masks=masks, validate_args=validate_args),
            LogSoftmaxMaskableCategorical(logits=logits, masks=masks, validate_args=validate_args),
        ):
            with pytest.raises(ValueError, match="support"):
                dist.log_prob(out_of_range)


def test_a_half_precision_row_masked_whole_is_refused_as_sb3_contrib_refuses_it():
    logits, masks = logits_and_masks(11, rows=3)
    masks[1] = False  # -1e8 is -inf in float16: the row normalises to NaN
    with pytest.raises(ValueError, match="logits"):
        MaskableCategorical(logits=logits.half(), masks=masks)
    with pytest.raises(ValueError, match="logits"):
        LogSoftmaxMaskableCategorical(logits=logits.half(), masks=masks)


def test_half_precision_samples_use_torch_sampling(monkeypatch):
    from tressette_env.training import masking

    def refuse(*args):
        raise AssertionError("inverse_cdf is for float32 and float64")

    monkeypatch.setattr(masking, "inverse_cdf", refuse)
    logits, masks = logits_and_masks(12, rows=4)
    sample = LogSoftmaxMaskableCategorical(logits=logits.to(torch.bfloat16), masks=masks).sample()
    assert masks[np.arange(4), sample.numpy()].all()
    with pytest.raises(AssertionError, match="inverse_cdf"):
        LogSoftmaxMaskableCategorical(logits=logits, masks=masks).sample()


def test_several_samples_per_row_use_torch_sampling():
    logits, masks = logits_and_masks(8, rows=5)
    dist = LogSoftmaxMaskableCategorical(logits=logits, masks=masks)
    samples = dist.sample((3,))
    assert samples.shape == (3, 5)
    assert all(masks[np.arange(5), row].all() for row in samples.numpy())


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
    # The update's gradients: MaskablePPO's loss terms, through every layer of both policies.
    for policy in (ours, theirs):
        policy.optimizer.zero_grad()
        values, log_prob, entropy = policy.evaluate_actions(obs_t, actions_t, action_masks=masks_a)
        (log_prob.mean() * 2 + 0.01 * entropy.mean() + values.square().mean()).backward()
    for (name, mine), other in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        assert torch.allclose(mine.grad, other.grad, atol=1e-5), name
    # Without masks, sb3-contrib's own way.
    with torch.no_grad():
        v1, lp1, e1 = ours.evaluate_actions(obs_t, actions_t)
        v2, lp2, e2 = theirs.evaluate_actions(obs_t, actions_t)
    assert torch.allclose(lp1, lp2, atol=1e-5) and torch.allclose(e1, e2, atol=1e-5)


def test_a_checkpoint_loaded_into_the_policy_keeps_the_fast_adam(tmp_path):
    """Torch restores a saved param group's implementation: the policy's hook keeps its own."""
    venv = DummyVecEnv([make_env(0)])
    old = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    old.learn(32)  # Adam's moments and steps in the checkpoint
    assert not old.policy.optimizer.param_groups[0]["fused"]
    old.save(tmp_path / "old.zip")
    resumed = MaskablePPO.load(tmp_path / "old.zip", env=venv, custom_objects={"policy_class": MaskablePolicy})
    adam = resumed.policy.optimizer
    for key, value in fast_adam_kwargs().items():
        assert adam.param_groups[0][key] is value
    moments = [state["exp_avg"] for state in adam.state.values()]
    assert len(moments) == len(adam.param_groups[0]["params"]) and all(m.abs().sum() > 0 for m in moments)
    resumed.learn(32)  # steps with the loaded moments
    # sb3-contrib's policy loads a checkpoint of ours with what its optimizer's state says, as torch does.
    resumed.save(tmp_path / "new.zip")
    plain = MaskablePPO.load(tmp_path / "new.zip", env=venv, custom_objects={"policy_class": MaskableActorCriticPolicy})
    plain.learn(32)


class _LearnedFeatures(torch.nn.Module):
    """A features extractor with weights of its own (``FlattenExtractor``'s two outputs are the same)."""

    def __init__(self, observation_space, features_dim=24):
        super().__init__()
        self.features_dim = features_dim
        self.linear = torch.nn.Linear(observation_space.shape[0], features_dim)

    def forward(self, obs):
        return torch.tanh(self.linear(obs))


def test_the_update_reads_the_actor_s_and_the_critic_s_own_features():
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class Features(BaseFeaturesExtractor):
        def __init__(self, observation_space, features_dim=24):
            super().__init__(observation_space, features_dim)
            self.inner = _LearnedFeatures(observation_space, features_dim)

        def forward(self, obs):
            return self.inner(obs)

    venv = DummyVecEnv([make_env(0)])
    kwargs = {"net_arch": [16], "features_extractor_class": Features, "share_features_extractor": False}
    ours = MaskablePPO(MaskablePolicy, venv, policy_kwargs=kwargs, seed=0).policy
    theirs = MaskablePPO("MlpPolicy", venv, policy_kwargs=kwargs, seed=1).policy
    theirs.load_state_dict(ours.state_dict())
    rng = np.random.default_rng(3)
    obs = torch.as_tensor(rng.integers(0, 2, (32, venv.observation_space.shape[0])), dtype=torch.float32)
    _, masks = logits_and_masks(4, rows=32)
    actions = torch.tensor([np.flatnonzero(m)[0] for m in masks])
    for policy in (ours, theirs):
        policy.optimizer.zero_grad()
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        (log_prob.mean() + 0.01 * entropy.mean() + values.square().mean()).backward()
    for (name, mine), other in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        assert torch.allclose(mine.grad, other.grad, atol=1e-6), name


def test_the_policy_s_adam_is_the_fast_one_unless_the_caller_chooses():
    venv = DummyVecEnv([make_env(0)])
    model = MaskablePPO(MaskablePolicy, venv, n_steps=32, batch_size=32, seed=0)
    adam = model.policy.optimizer
    assert type(adam) is torch.optim.Adam
    assert all(adam.defaults[key] for key in fast_adam_kwargs())
    assert adam.defaults["lr"] == model.learning_rate
    assert adam.param_groups[0]["params"] == list(model.policy.parameters())
    assert "fused" not in model.policy_kwargs.get("optimizer_kwargs", {})  # not written into the saved model
    chosen = MaskablePPO(
        MaskablePolicy, venv, seed=0, policy_kwargs={"optimizer_kwargs": {"foreach": False, "eps": 1e-6}}
    ).policy.optimizer
    assert not chosen.defaults["foreach"] and not chosen.defaults["fused"] and chosen.defaults["eps"] == 1e-6
    other = MaskablePPO(MaskablePolicy, venv, seed=0, policy_kwargs={"optimizer_class": torch.optim.SGD})
    assert type(other.policy.optimizer) is torch.optim.SGD


def test_a_model_trained_with_the_policy_steps_as_sb3_contrib_s_up_to_rounding():
    """One MaskablePPO update from the same weights and rollout: sb3-contrib's policy and ours end level."""
    venv = DummyVecEnv([make_env(0)])
    ours = MaskablePPO(MaskablePolicy, venv, n_steps=64, batch_size=32, n_epochs=2, seed=0)
    ours.learn(64)  # a rollout in the buffer, and one update
    theirs = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=32, n_epochs=2, seed=0)
    theirs.set_logger(ours.logger)
    theirs.rollout_buffer = ours.rollout_buffer
    theirs._current_progress_remaining = ours._current_progress_remaining
    theirs.policy.load_state_dict(ours.policy.state_dict())
    for model in (ours, theirs):
        model.policy.optimizer.state.clear()
        torch.manual_seed(1)
        np.random.seed(1)  # the buffer's minibatches
        model.train()
    for (name, mine), other in zip(ours.policy.named_parameters(), theirs.policy.parameters(), strict=True):
        assert torch.allclose(mine, other, atol=1e-5), name


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


def _rollout(venv, steps=40, seed=0):
    """Observations, masks and random legal actions of ``steps`` steps of ``venv`` (one environment)."""
    obs, masks, actions = [], [], []
    venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = get_action_masks(venv)
        obs.append(venv.buf_obs[None].copy()[0])
        masks.append(mask[0])
        actions.append(rng.choice(np.flatnonzero(mask[0])))
        venv.step(np.array([actions[-1]]))
    return torch.as_tensor(np.array(obs), dtype=torch.float32), torch.as_tensor(np.array(actions)), np.array(masks)


def _dtypes_seen(policy):
    """Record the dtype of the first hidden layer's output and of the action head's."""
    seen = {"hidden": [], "head": []}
    first = next(m for m in policy.mlp_extractor.policy_net.modules() if isinstance(m, torch.nn.Linear))
    first.register_forward_hook(lambda module, args, out: seen["hidden"].append(out.dtype))
    policy.action_net.register_forward_hook(lambda module, args, out: seen["head"].append(out.dtype))
    return seen


def _numbers_seen(monkeypatch):
    """Record the dtype of the logits ``masked_log_prob_and_entropy`` (the update's numbers) is given."""
    import tressette_env.training.masking as masking

    seen, numbers = [], masking.masked_log_prob_and_entropy

    def recording(logits, masks, actions):
        seen.append(logits.dtype)
        return numbers(logits, masks, actions)

    monkeypatch.setattr(masking, "masked_log_prob_and_entropy", recording)
    return seen


def test_the_bf16_update_evaluates_actions_as_float32_up_to_bfloat16_rounding(monkeypatch):
    """``bf16_update``: the layers in bfloat16, the numbers from float32 logits; float32's results within bfloat16's
    rounding; weights and gradients float32; the rollouts' forward pass untouched."""
    venv = DummyVecEnv([make_env(0)])
    kwargs = {"net_arch": [32, 16]}
    plain = MaskablePPO(MaskablePolicy, venv, policy_kwargs=kwargs, seed=0).policy
    bf16 = MaskablePPO(MaskablePolicy, venv, policy_kwargs={**kwargs, "bf16_update": True}, seed=1).policy
    assert not plain.bf16_update and bf16.bf16_update
    bf16.load_state_dict(plain.state_dict())
    obs, actions, masks = _rollout(venv)
    seen = {id(policy): _dtypes_seen(policy) for policy in (plain, bf16)}
    numbers = _numbers_seen(monkeypatch)
    results = []
    for policy in (plain, bf16):
        policy.optimizer.zero_grad()
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        assert values.dtype == log_prob.dtype == entropy.dtype == torch.float32
        (log_prob.mean() * 2 + 0.01 * entropy.mean() + values.square().mean()).backward()
        results.append((values.detach(), log_prob.detach(), entropy.detach()))
    assert seen[id(plain)] == {"hidden": [torch.float32], "head": [torch.float32]}
    assert seen[id(bf16)] == {"hidden": [torch.bfloat16], "head": [torch.bfloat16]}
    assert numbers == [torch.float32, torch.float32]  # the logits made float32 before the numbers
    (v1, lp1, e1), (v2, lp2, e2) = results
    assert 1e-4 < (v1 - v2).abs().max() < 0.05  # rounded by bfloat16 (8 bits of mantissa), and only so
    assert torch.allclose(lp1, lp2, atol=0.02) and torch.allclose(e1, e2, atol=0.02)
    for (name, mine), other in zip(bf16.named_parameters(), plain.parameters(), strict=True):
        assert mine.dtype == mine.grad.dtype == torch.float32, name
        scale = other.grad.abs().max().item()
        assert torch.allclose(mine.grad, other.grad, atol=0.05 * scale + 1e-6), name
    # The rollouts' forward pass stays float32: the same logits as the float32 policy's, bit for bit.
    with torch.no_grad():
        ours, theirs = bf16.get_distribution(obs, masks), plain.get_distribution(obs, masks)
        assert torch.equal(ours.distribution.logits, theirs.distribution.logits)


def test_the_bf16_update_without_masks_rounds_only_the_layers(monkeypatch):
    """sb3-contrib's way (no masks): the hidden layers (and the value head) in bfloat16, the action head and the
    distribution in float32."""
    venv = DummyVecEnv([make_env(0)])
    kwargs = {"net_arch": [32, 16]}
    plain = MaskablePPO(MaskablePolicy, venv, policy_kwargs=kwargs, seed=0).policy
    bf16 = MaskablePPO(MaskablePolicy, venv, policy_kwargs={**kwargs, "bf16_update": True}, seed=1).policy
    bf16.load_state_dict(plain.state_dict())
    obs, actions, _ = _rollout(venv)
    seen = _dtypes_seen(bf16)
    with torch.no_grad():
        values, log_prob, entropy = bf16.evaluate_actions(obs, actions)
        plain_values, plain_log_prob, plain_entropy = plain.evaluate_actions(obs, actions)
    assert seen == {"hidden": [torch.bfloat16], "head": [torch.float32]}
    assert values.dtype == log_prob.dtype == entropy.dtype == torch.float32
    assert 1e-4 < (values - plain_values).abs().max() < 0.05
    assert torch.allclose(log_prob, plain_log_prob, atol=0.02) and torch.allclose(entropy, plain_entropy, atol=0.02)


def test_the_bf16_update_trains_saves_and_loads(tmp_path):
    venv = DummyVecEnv([make_env(0)])
    model = MaskablePPO(MaskablePolicy, venv, n_steps=32, batch_size=32, n_epochs=2, seed=0,
                        policy_kwargs={"bf16_update": True})  # fmt: skip
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(64)
    after = list(model.policy.parameters())
    assert all(p.dtype == torch.float32 and torch.isfinite(p).all() for p in after)
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", env=venv)
    assert type(loaded.policy) is MaskablePolicy and loaded.policy.bf16_update
    # Off (the default), the saved arguments are sb3-contrib's own: such a model loads with its policy too.
    plain = MaskablePPO(MaskablePolicy, venv, seed=0)
    assert "bf16_update" not in plain.policy._get_constructor_parameters()
    plain.save(tmp_path / "plain.zip")
    MaskablePPO.load(tmp_path / "plain.zip", env=venv, custom_objects={"policy_class": MaskableActorCriticPolicy})


def test_bf16_update_takes_a_numpy_bool_as_train_config_does():
    venv = DummyVecEnv([make_env(0)])
    policy = MaskablePPO(MaskablePolicy, venv, policy_kwargs={"bf16_update": np.True_}).policy
    assert policy.bf16_update is True


@pytest.mark.parametrize("value", [1, "yes", None])
def test_bf16_update_is_true_or_false(value):
    venv = DummyVecEnv([make_env(0)])
    with pytest.raises(ValueError, match="bf16_update is True or False"):
        MaskablePPO(MaskablePolicy, venv, policy_kwargs={"bf16_update": value})
