"""``NoSingleSampleBuffer``: MaskablePPO's rollout buffer, never with a minibatch of one sample.

MaskablePPO normalises each minibatch's advantages by their standard deviation, which is NaN
for one sample, and the NaN then reaches every weight of the policy (the next forward pass
stops on NaN logits). A rollout of ``n`` samples cut into minibatches of ``batch_size`` ends
with a minibatch of one where ``n % batch_size == 1`` (``--n-envs 2 --n-steps 16
--batch-size 31``). This buffer leaves that one sample out of the epoch: the order is
shuffled anew each epoch, so which one sits out is random, and every other rollout size gives
the same minibatches, from the same random numbers, as sb3-contrib's ``MaskableRolloutBuffer``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer


class NoSingleSampleBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` whose ``get`` skips a last minibatch of one sample (see the module docstring).

    Put in place by ``without_single_samples`` (not as ``rollout_buffer_class``, which SB3 saves in
    the model's file: a file that names this class would not load where the package is not).
    """

    def get(self, batch_size: int | None = None) -> Generator[Any, None, None]:  # type: ignore[override]
        whole = self.buffer_size * self.n_envs
        for samples in super().get(batch_size):
            if len(samples.advantages) > 1 or whole == 1:
                yield samples


def without_single_samples(model: Any) -> Any:
    """``model`` (a MaskablePPO) with its rollout buffer made a ``NoSingleSampleBuffer`` (the same fields); returned."""
    if type(model.rollout_buffer) is MaskableRolloutBuffer:
        model.rollout_buffer.__class__ = NoSingleSampleBuffer
    return model
