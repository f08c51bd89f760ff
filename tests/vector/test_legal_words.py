"""The family engines compute the legal words once a state: what they serve is always the current state's."""

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.vector import sample_mask


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


def masks_of(words):
    """(M, 4) uint64 legal words -> (M, 255) 0/1 masks."""
    return np.unpackbits(words.astype("<u8").view(np.uint8), axis=1, count=255, bitorder="little")


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare", "tressette_a_perdere"])
def test_a_few_deals_words_are_theirs_of_the_whole_batch(game):
    # Under a quarter of the batch (the other players' last decisions) only those deals' words are
    # computed and kept: they must be the rows of the whole batch's; the step of those deals alone
    # must judge its actions by them; and after the step the same deals must be served anew.
    batch = catalog.entry(game).batch_type()(64, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(150):
        rows = np.sort(rng.choice(64, size=int(rng.integers(1, 16)), replace=False))
        whole = batch._words()  # computed afresh, nothing kept
        served = batch._legal_words(rows)  # only these deals': kept for the step's check
        np.testing.assert_array_equal(served, whole[rows])
        masks = masks_of(whole[rows])
        actions = np.zeros(64, dtype=np.int64)
        actions[rows] = sample_mask(masks, rng)
        if rng.random() < 0.3:  # an illegal action in one of the deals: a renuncio, judged from its words
            actions[rows[0]] = int(np.flatnonzero(masks[0] == 0)[0])
        active = np.zeros(64, dtype=bool)
        active[rows] = True
        illegal = np.zeros(64, dtype=bool)
        illegal[rows] = masks[np.arange(len(rows)), actions[rows]] == 0
        result = batch.step(actions, active=active)
        assert np.array_equal(result.renuncio >= 0, illegal)
        np.testing.assert_array_equal(batch._legal_words(rows), batch._words()[rows])  # the new state's
