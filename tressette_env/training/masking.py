"""MaskablePPO's policy with a faster masked distribution and update: sb3-contrib's numbers, less time on CPU.

``LogSoftmaxMaskableCategorical`` is sb3-contrib's ``MaskableCategorical`` with three changes,
each timed on one core of the project's 2-core build machine (torch's CPU build, with MKL) over
1024 rows of 161 logits, about ten of them legal:

| what | sb3-contrib | here |
| --- | --- | --- |
| renormalising the masked logits | ``Categorical.__init__``'s ``logsumexp``: 4.4 ms (0.25 ms with no masked entry) | ``torch.log_softmax``: 0.24 ms |
| building the distribution | ``Categorical.__init__`` twice, each with a ``logsumexp`` and torch's validation (0.45 ms): unmasked (0.68 ms), then masked (the row above's 4.4 ms and the validation) | once, the NaN check by ``refuse_nan`` (0.02 ms) |
| one sample per row | ``torch.multinomial``, which draws an exponential for each of the 161 entries: 6.5 ms | ``inverse_cdf``: one uniform per row and a binary search, 0.44 ms (on CPU in float32/64; torch's elsewhere) |

Why the first: sb3-contrib sets the logits of illegal actions to -1e8 and PyTorch's CPU
``exp`` is very slow where its result underflows (``torch.exp`` of -1e8 took 56 times as long
as of -10: the cliff of pytorch/pytorch#48388); Tressette has 161 actions of which about ten
are legal, so most entries take the slow path, in the forward pass and in the gradient.

What stays the same: the masking (the same -1e8: illegal actions have probability 0 in every
row with a legal action of finite logit), the log-probabilities, entropies, modes and
gradients up to float rounding, the distribution of the samples, the validation (a
``ValueError`` for NaN logits, and for actions out of range in ``log_prob``, where torch's
validation is on, its default). ``tests/training/test_masking.py`` compares them with
sb3-contrib's. What differs: the random numbers behind a sample (a seeded run is not
bit-identical to one with ``"MlpPolicy"``), and the logits of a row where every legal action
has a normalised logit below -1e8 (every action masked, which MaskablePPO's rollouts never
see, or the legal ones at -inf): both classes give the same probabilities there, but the
logits here are their logarithms (-log 161 in a row masked whole), where sb3-contrib's
float32 ``logsumexp`` leaves other values (-8.0 for 161 actions).

Effect on MaskablePPO (64x64 MLP, n_steps 128, batch 1024, 4 epochs, one thread), on the
project's 2-core build machine: with ``OMP_NUM_THREADS=1 python benchmarks/bench_train.py
--repeats 3 --json benchmarks/results/train.json`` (ratios of the medians; the table is in
docs/benchmarks.md) MaskablePPO is 1.53x faster with this policy than with ``"MlpPolicy"`` on
the batched environment of 1024 deals and 1.17-1.28x on single-deal environments, whose
stepping takes most of the time. The first version of this policy had the renormalisation
only. Against it, in ``collect_rollouts`` and ``train`` as ``bench_train.py`` times them (two
runs on the same machine whose outputs are not in ``benchmarks/results``), the single build and
the sampler take the batched rollout from 31 to 20 µs per learner step and the update from 78
to 74 µs (1.16x for the whole loop), and the policy's share of the rollout with single-deal
environments from 28 to 21 µs per learner step with 256 environments and from 66 to 48 µs
with 32.

MaskablePPO's update asks the policy for each minibatch's log-probabilities and entropies
(``evaluate_actions``). ``MaskablePolicy`` computes them by ``masked_log_prob_and_entropy``,
without a distribution object and without ``exp`` of the masked entries, and builds Adam with
``fused=True`` (``fast_adam_kwargs``). With ``OMP_NUM_THREADS=1 python
benchmarks/bench_update.py --rounds 11 --json benchmarks/results/update.json`` at cc36e9e (``TeamPlayPPO``,
256 deals, batch 1024, 4 epochs, one thread, medians of 11 interleaved rounds): the update
from 43.3 to 36.0 CPU µs a sample (1.18x), ``TeamPlayPPO``'s samples a second 1.17x; each
change alone gave 1.09x (the update's numbers) and 1.05x (Adam). What is left, in torch's
profiler: the matrix products about 40% of the update (the two 790-wide first layers 31%),
the minibatch's observations copied and made float 13%, the masked logits' elementwise work.

| sb3-contrib | here |
| --- | --- |
| ``MaskableCategorical`` | ``LogSoftmaxMaskableCategorical`` |
| ``MaskableCategoricalDistribution`` | ``LogSoftmaxMaskableCategoricalDistribution`` |
| ``MaskableActorCriticPolicy`` (``"MlpPolicy"``) | ``MaskablePolicy`` |
| its ``evaluate_actions`` (the distribution's ``log_prob``, ``entropy``) | ``masked_log_prob_and_entropy`` |
| ``Adam`` | ``Adam(fused=True)`` (``fast_adam_kwargs``) |

Example:
    >>> from sb3_contrib import MaskablePPO
    >>> from tressette_env.training.masking import MaskablePolicy
    >>> from tressette_env.wrappers import SingleSeatEnv
    >>> model = MaskablePPO(MaskablePolicy, SingleSeatEnv(), n_steps=64, batch_size=64)
    >>> type(model.policy.action_dist).__name__
    'LogSoftmaxMaskableCategoricalDistribution'

``tressette train`` uses ``MaskablePolicy``, also when it resumes one of its checkpoints
(``--resume`` takes only those, see ``checkpoint``, and loads them with ``custom_objects=
{"policy_class": MaskablePolicy}``). Models saved with it load with ``MaskablePPO.load``
wherever ``tressette_env`` is installed, and without it with ``custom_objects={"policy_class":
MaskableActorCriticPolicy}`` (the weights are the same); ``MaskablePPO.load`` unpickles the
file, so only for trusted files: ``tressette eval`` plays any of them without unpickling
(``tressette_env.learned.loading``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
    MaybeMasks,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch.distributions import Categorical, Distribution

MASKED_LOGIT = -1e8
"""The logit given to an illegal action before renormalising: sb3-contrib's ``HUGE_NEG``."""


class LogSoftmaxMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` renormalised by ``log_softmax``, built once, sampled by inverse CDF (module docstring)."""

    def __init__(
        self,
        probs: th.Tensor | None = None,
        logits: th.Tensor | None = None,
        validate_args: bool | None = None,
        masks: MaybeMasks = None,
    ) -> None:
        if probs is not None or logits is None:  # not the policy's way: sb3-contrib's own
            super().__init__(probs, logits, validate_args, masks)
            return
        # What MaskableCategorical.__init__ sets, without its second Categorical.__init__ (one
        # logsumexp and one validation fewer) and with torch's validation of the normalised
        # logits replaced by refuse_nan, which checks the same thing; samples stay validated.
        self.masks = None
        Categorical.__init__(self, logits=logits, validate_args=False)
        self._validate_args = Distribution._validate_args if validate_args is None else validate_args
        if self._validate_args:
            refuse_nan(self.logits, self)
        self._original_logits = self.logits
        if masks is not None:
            self.apply_masking(masks)

    def apply_masking(self, masks: MaybeMasks) -> None:
        self.__dict__.pop("probs", None)  # cached for the logits being replaced
        logits = self._original_logits
        if masks is None:
            self.masks = None
            self.logits = self._param = logits
            return
        self.masks = th.as_tensor(masks, dtype=th.bool, device=logits.device).reshape(logits.shape)
        masked = th.where(self.masks, logits, th.tensor(MASKED_LOGIT, dtype=logits.dtype, device=logits.device))
        # What Categorical.__init__(logits=masked, validate_args) would set, without its logsumexp.
        self.logits = self._param = th.log_softmax(masked, dim=-1)
        if self._validate_args:  # NaN only where -1e8 overflows (float16: -inf) in a row masked whole
            refuse_nan(self.logits, self)

    def sample(self, sample_shape: th.Size | tuple[int, ...] = ()) -> th.Tensor:
        """One action per row, drawn by inverse CDF (``torch.multinomial`` draws 161 numbers per row).

        On CPU in float32 or float64 only: elsewhere, and for several samples per row, torch's
        own sampling (a parallel GPU cumsum may give an action of probability 0 a sliver of the
        CDF, and half-precision uniforms are too coarse).
        """
        probs = self.probs
        if len(sample_shape) > 0 or probs.device.type != "cpu" or probs.dtype not in (th.float32, th.float64):
            return super().sample(th.Size(sample_shape))
        with th.no_grad():
            probs = probs.reshape(-1, self._num_events)
            uniforms = th.rand((probs.shape[0], 1), dtype=probs.dtype, device=probs.device)
            return inverse_cdf(probs, uniforms).reshape(self._batch_shape)


def inverse_cdf(probs: th.Tensor, uniforms: th.Tensor) -> th.Tensor:
    """Per row, the action whose CDF interval holds ``uniform * total``: (rows, n) probabilities, (rows, 1) uniforms in [0, 1).

    An action of probability 0 is never returned: its interval is empty, because CPU's
    sequential cumsum leaves the CDF unchanged where it adds 0. Where float rounding makes
    ``uniform * total`` equal to the total, the last action of positive probability is
    returned. The index is always in range, NaN probabilities included.
    """
    cdf = probs.cumsum(-1)
    total = cdf[:, -1:].contiguous()
    index = th.searchsorted(cdf, uniforms * total, right=True)
    last = th.searchsorted(cdf, total)  # the first action where the CDF reaches its total
    return th.minimum(index, last).clamp_(max=probs.shape[-1] - 1).squeeze(-1)


def refuse_nan(logits: th.Tensor, distribution: Distribution | str) -> None:
    """Raise ``ValueError`` if ``logits`` holds a NaN: torch's check of ``Categorical``'s normalised logits, cheaper.

    ``distribution`` is the distribution the logits are of (the message names its class), or its name.

    Torch compares every entry with itself and reduces row by row (about 450 µs for 1024 rows
    of 161 on the machine measured); a sum that is not NaN proves there is none (about 20 µs),
    and only a NaN sum looks at the entries.
    """
    with th.no_grad():
        if not th.isnan(logits.sum()):  # no NaN can hide in a sum that is not NaN
            return
        if th.isnan(logits).any():
            raise ValueError(
                f"Expected parameter logits (Tensor of shape {tuple(logits.shape)}) of distribution "
                f"{distribution if isinstance(distribution, str) else type(distribution).__name__} to hold no NaN, "
                f"but found NaN values:\n{logits}"
            )


class LogSoftmaxMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution, built on ``LogSoftmaxMaskableCategorical``."""

    def proba_distribution(self, action_logits: th.Tensor) -> LogSoftmaxMaskableCategoricalDistribution:
        self.distribution = LogSoftmaxMaskableCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


def masked_log_prob_and_entropy(
    logits: th.Tensor, masks: MaybeMasks, actions: th.Tensor
) -> tuple[th.Tensor, th.Tensor]:
    """Each row's log-probability of its action and its entropy under the masked distribution, without building one.

    The numbers of ``LogSoftmaxMaskableCategorical(logits=logits, masks=masks)``'s ``log_prob``
    and ``entropy`` (and of sb3-contrib's ``MaskableCategorical``), with their gradients, up to
    float rounding. The entropy takes ``exp`` of the legal entries only: the masked ones, near
    -1e8, take CPU's slow ``exp`` path (the module docstring), and count 0 either way.

    Validated as the distribution is (where ``Distribution``'s default validation is on): a
    ``ValueError`` for a NaN or +inf logit, masked or not (the distribution's normalisation
    makes either a NaN), for a NaN after masking, and for actions out of range; always for
    actions that are not one a row. One case differs: a row whose logits are all -inf, which
    the distribution refuses, is taken here as the masking leaves it.
    """
    masks = th.as_tensor(masks, dtype=th.bool, device=logits.device).reshape(logits.shape)
    validate = Distribution._validate_args
    if validate:
        with th.no_grad():
            if not th.isfinite(logits.sum()) and (th.isnan(logits) | (logits == float("inf"))).any():
                raise ValueError(
                    f"Expected the logits (Tensor of shape {tuple(logits.shape)}) to hold no NaN and no +inf "
                    f"(normalising makes them NaN), but found some:\n{logits}"
                )
    log_probs = th.log_softmax(
        th.where(masks, logits, th.tensor(MASKED_LOGIT, dtype=logits.dtype, device=logits.device)), dim=-1
    )
    actions = actions.long()
    if actions.shape != logits.shape[:-1]:
        raise ValueError(
            f"actions has shape {tuple(actions.shape)}: one action per row of the logits, {tuple(logits.shape[:-1])}"
        )
    if validate:
        refuse_nan(log_probs, LogSoftmaxMaskableCategorical.__name__)
        if actions.numel() and (int(actions.min()) < 0 or int(actions.max()) >= logits.shape[-1]):
            raise ValueError(
                f"Expected value argument (Tensor of shape {tuple(actions.shape)}) to be within the support "
                f"(actions 0 to {logits.shape[-1] - 1}) of the distribution, but found invalid values:\n{actions}"
            )
    log_prob = log_probs.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    legal = log_probs.masked_fill(~masks, 0.0)  # 0 where masked: exp(0) * 0 adds nothing
    return log_prob, -(legal.exp() * legal).sum(-1)


def fast_adam_kwargs() -> dict[str, bool]:
    """Adam's keyword for its faster implementation: ``fused`` (torch 2.4 and later, CPU too), else ``foreach``."""
    major, minor = (int(part) for part in th.__version__.split(".")[:2])
    return {"fused": True} if (major, minor) >= (2, 4) else {"foreach": True}


def _keeping(fast: dict[str, bool]):
    """A hook for ``Optimizer.load_state_dict`` that keeps the optimizer's ``fast`` implementation (``fused``, ``foreach``).

    Torch restores a saved param group's every setting, its implementation included: a
    checkpoint saved before this policy chose fused Adam would bring back Adam one tensor at a
    time. Its moments and steps load as they are; torch moves the steps where fused Adam wants
    them.
    """

    def keep(optimizer: th.optim.Optimizer, state_dict: dict) -> dict:
        settings = {"fused": None, "foreach": None, **fast}
        return {**state_dict, "param_groups": [{**group, **settings} for group in state_dict["param_groups"]]}

    return keep


class MaskablePolicy(MaskableActorCriticPolicy):
    """sb3-contrib's ``MaskableActorCriticPolicy`` (``"MlpPolicy"``), faster: its masked distribution, its update, its Adam.

    Takes the same arguments (``net_arch``, ``activation_fn``, ...). Three differences, each
    giving sb3-contrib's numbers up to float rounding (``tests/training/test_masking.py``):

    | what | sb3-contrib | here |
    | --- | --- | --- |
    | the masked distribution (rollouts, ``predict``) | ``MaskableCategoricalDistribution`` | ``LogSoftmaxMaskableCategoricalDistribution`` |
    | ``evaluate_actions`` (MaskablePPO's update) | builds that distribution, then its ``log_prob`` and ``entropy`` | ``masked_log_prob_and_entropy``: no distribution object, no ``exp`` of masked entries |
    | the optimizer | ``Adam`` | ``Adam`` with ``fast_adam_kwargs()`` (``fused=True``), unless ``optimizer_class`` or ``optimizer_kwargs`` says otherwise |

    The optimizer's choice is not written into the saved model's ``policy_kwargs`` (they stay
    the caller's), so a model saved with it loads with sb3-contrib's policy too (its optimizer's
    saved state says ``fused=True``, which torch restores: under torch older than 2.4, which has
    no fused Adam on CPU, resume it with ``MaskablePolicy``). A checkpoint loaded into this
    policy keeps the fast Adam, whatever the implementation it was saved with. Action spaces
    other than ``Discrete`` keep sb3-contrib's distribution and update.

    ``bf16_update=True`` (off by default; ``tressette train --bf16-update``) runs
    ``evaluate_actions``, the update's forward pass, under bfloat16 autocast: the layers' matrix
    products in bfloat16, their weights and gradients, Adam, the loss and the rollouts in
    float32. Faster on a CPU with bfloat16 instructions (measured on AVX512-BF16 only), and
    rounded: a run is not the float32 run (docs/training.md has both on the main job). It is
    saved with the model only when on, so a model saved without it loads with sb3-contrib's
    policy.
    """

    def __init__(self, *args: Any, bf16_update: bool = False, **kwargs: Any) -> None:
        if not isinstance(bf16_update, (bool, np.bool_)):
            raise ValueError(f"bf16_update is True or False; got {bf16_update!r}")
        self.bf16_update = bool(bf16_update)
        """Whether ``evaluate_actions`` (MaskablePPO's update) runs the networks under bfloat16 autocast."""
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        if self.bf16_update:  # (left out when off: such a model loads with sb3-contrib's policy too)
            data["bf16_update"] = True
        return data

    def _build(self, lr_schedule: Any) -> None:
        if type(self.action_dist) is MaskableCategoricalDistribution:
            self.action_dist = LogSoftmaxMaskableCategoricalDistribution(self.action_dist.action_dim)
        super()._build(lr_schedule)
        if self.optimizer_class is th.optim.Adam and not {"fused", "foreach"} & self.optimizer_kwargs.keys():
            fast = fast_adam_kwargs()
            self.optimizer = th.optim.Adam(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs, **fast)
            self.optimizer.register_load_state_dict_pre_hook(_keeping(fast))

    def evaluate_actions(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: MaybeMasks = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        """sb3-contrib's ``evaluate_actions`` (values, log-probabilities, entropies), by ``masked_log_prob_and_entropy``."""
        masked = action_masks is not None and type(self.action_dist) is LogSoftmaxMaskableCategoricalDistribution
        if not masked and not self.bf16_update:
            return super().evaluate_actions(obs, actions, action_masks)
        if self.bf16_update:  # the layers in bfloat16 (their weights and gradients stay float32), the rest in float32
            with th.autocast(self.device.type, dtype=th.bfloat16):
                latent_pi, latent_vf = self._latents(obs)
                values = self.value_net(latent_vf)
                logits = self.action_net(latent_pi) if masked else None
            values = values.float()
        else:
            latent_pi, latent_vf = self._latents(obs)
            values, logits = self.value_net(latent_vf), self.action_net(latent_pi)
        if masked:
            log_prob, entropy = masked_log_prob_and_entropy(logits.float(), action_masks, actions)
            return values, log_prob, entropy
        # sb3-contrib's own way (no masks, or another distribution), from the float32 latent.
        distribution = self._get_action_dist_from_latent(latent_pi.float())
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return values, distribution.log_prob(actions), distribution.entropy()

    def _latents(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """The actor's and the critic's latent of each observation (the features, then their networks)."""
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return self.mlp_extractor.forward_actor(pi_features), self.mlp_extractor.forward_critic(vf_features)
