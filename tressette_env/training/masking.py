"""MaskablePPO's policy with the masked distribution renormalised by ``log_softmax``: same numbers, faster on CPU.

sb3-contrib's ``MaskableCategorical`` sets the logits of illegal actions to -1e8 and lets
``torch.distributions.Categorical`` renormalise them with ``logsumexp``. PyTorch's CPU ``exp``
is very slow where its result underflows (on the CPU build measured here, which uses MKL:
``torch.exp`` of -1e8 took 56 times as long as of -10, and ``logsumexp`` over 1024 rows of
161 logits, ten of them legal, 4.4 ms against 0.25 ms for rows without masked entries; the
same cliff as pytorch/pytorch#48388). Tressette has 161 actions of which about ten are legal,
so most entries take the slow path, in the forward pass and in the gradient. On one core
(``benchmarks/bench_train.py``) that was 31-39% of MaskablePPO's time with the batched
environment of 256-1024 deals; with single-deal environments, whose stepping takes most of
the time, the update phase ran 1.46x faster but the whole loop only 1-3%.

``LogSoftmaxMaskableCategorical`` masks exactly as sb3-contrib does (the same -1e8) and
renormalises with ``torch.log_softmax``, whose kernel does not take that path. The log
probabilities, entropies, modes and gradients equal sb3-contrib's up to float rounding
(``tests/training/test_masking.py`` compares them); illegal actions keep probability 0. Up to
float rounding: a seeded run is not bit-identical to one with ``"MlpPolicy"``. One difference
beyond rounding, in a row where every action is masked (which MaskablePPO's rollouts never
see): both give the uniform distribution, but the logits here are its log-probabilities
(-log 161), where sb3-contrib's float32 ``logsumexp`` leaves -8.0.

| sb3-contrib | here |
| --- | --- |
| ``MaskableCategorical`` | ``LogSoftmaxMaskableCategorical`` |
| ``MaskableCategoricalDistribution`` | ``LogSoftmaxMaskableCategoricalDistribution`` |
| ``MaskableActorCriticPolicy`` (``"MlpPolicy"``) | ``MaskablePolicy`` |

Example:
    >>> from sb3_contrib import MaskablePPO
    >>> from tressette_env.training.masking import MaskablePolicy
    >>> from tressette_env.wrappers import SingleSeatEnv
    >>> model = MaskablePPO(MaskablePolicy, SingleSeatEnv(), n_steps=64, batch_size=64)
    >>> type(model.policy.action_dist).__name__
    'LogSoftmaxMaskableCategoricalDistribution'

``tressette train`` uses ``MaskablePolicy``, also when it resumes a checkpoint: ``--resume``
loads any checkpoint's weights into ``MaskablePolicy`` (``custom_objects={"policy_class":
MaskablePolicy}``), so one saved with ``"MlpPolicy"`` trains on with it. Models saved with it
load with ``MaskablePPO.load`` wherever ``tressette_env`` is installed, and without it with
``custom_objects={"policy_class": MaskableActorCriticPolicy}`` (the weights are the same).
"""

from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
    MaybeMasks,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

MASKED_LOGIT = -1e8
"""The logit given to an illegal action before renormalising: sb3-contrib's ``HUGE_NEG``."""


class LogSoftmaxMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` renormalised by ``log_softmax`` instead of ``logsumexp`` (see the module docstring)."""

    def apply_masking(self, masks: MaybeMasks) -> None:
        if masks is None or not hasattr(self, "_original_logits"):
            super().apply_masking(masks)  # unmasked, or an sb3-contrib whose internals changed: its own way
            return
        logits = self._original_logits
        self.masks = th.as_tensor(masks, dtype=th.bool, device=logits.device).reshape(logits.shape)
        masked = th.where(self.masks, logits, th.tensor(MASKED_LOGIT, dtype=logits.dtype, device=logits.device))
        # What Categorical.__init__(logits=masked) would set, without its logsumexp; the original
        # logits were validated when this distribution was built, and where() adds no NaN.
        self.__dict__.pop("probs", None)
        self.logits = self._param = th.log_softmax(masked, dim=-1)


class LogSoftmaxMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution, built on ``LogSoftmaxMaskableCategorical``."""

    def proba_distribution(self, action_logits: th.Tensor) -> LogSoftmaxMaskableCategoricalDistribution:
        self.distribution = LogSoftmaxMaskableCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


class MaskablePolicy(MaskableActorCriticPolicy):
    """sb3-contrib's ``MaskableActorCriticPolicy`` (``"MlpPolicy"``) with the faster masked distribution.

    Takes the same arguments (``net_arch``, ``activation_fn``, ...). Action spaces other than
    ``Discrete`` keep sb3-contrib's distribution.
    """

    def _build(self, lr_schedule: Any) -> None:
        if type(self.action_dist) is MaskableCategoricalDistribution:
            self.action_dist = LogSoftmaxMaskableCategoricalDistribution(self.action_dist.action_dim)
        super()._build(lr_schedule)
