"""The family engines compute the legal words once a state: what they serve is always the current state's."""

import numpy as np
import pytest

from tressette_env import catalog


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare", "tressette_a_perdere"])
def test_served_words_are_the_current_states(game):
    batch = catalog.entry(game).batch_type()(16, seed=3)
    rng = np.random.default_rng(3)
    for i in range(120):
        served = batch.legal_masks()  # computed, or served from the step's sample
        fresh = np.unpackbits(batch._words().astype("<u8").view(np.uint8), axis=1, count=255, bitorder="little")
        np.testing.assert_array_equal(served, fresh.view(np.int8))
        if i % 7 == 3:  # a reset of some deals changes their legal actions too
            batch.reset(deals=np.arange(0, 16, 3))
            continue
        actions = batch.sample_actions(rng)
        assert batch.legal_masks()[np.arange(16), actions].all()
        batch.step(actions)
    with pytest.raises(ValueError):  # the served words cannot be changed by a caller
        batch._legal_words()[0, 0] = 0
