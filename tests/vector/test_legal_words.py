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


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare", "tressette_a_perdere"])
def test_a_few_deals_words_are_theirs_of_the_whole_batch(game):
    # Under a quarter of the batch (the other players' last decisions) only those deals' words are
    # computed: they must be the rows of the whole batch's, and a step of those deals alone must
    # judge each action as the whole batch's words do.
    batch = catalog.entry(game).batch_type()(64, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(150):
        rows = np.sort(rng.choice(64, size=int(rng.integers(1, 16)), replace=False))
        whole = batch._words()
        np.testing.assert_array_equal(batch._words(rows), whole[rows])
        np.testing.assert_array_equal(batch._legal_words(rows), whole[rows])
        np.testing.assert_array_equal(batch._legal_words(rows), whole[rows])  # served again, kept
        actions = batch.sample_actions(rng)
        if rng.random() < 0.3:  # an illegal action in one of the deals: a renuncio, judged from its words
            actions[rows[0]] = int(np.flatnonzero(batch.legal_masks()[rows[0]] == 0)[0])
        active = np.zeros(64, dtype=bool)
        active[rows] = True
        illegal = ~batch.legal_masks()[np.arange(64), actions].astype(bool) & active
        result = batch.step(actions, active=active)
        assert np.array_equal(result.renuncio >= 0, illegal)
