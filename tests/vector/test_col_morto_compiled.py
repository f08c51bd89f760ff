"""Col morto's compiled observation (``vector._col_morto_words``) is the NumPy one, byte for byte.

``tests/vector/test_col_morto.py`` pins ``ColMortoBatch.observe`` to the scalar encoder on
whichever path this process takes (compiled where numba is installed); here the two paths
are compared with each other on the same states: every rule set of that file, every
player's view, chosen deals, partial steps and renuncios, finished deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from tressette_env.engine.actions import FAMILY_NUM_ACTIONS
from tressette_env.vector import col_morto
from tressette_env.vector.col_morto import ColMortoBatch

from .test_col_morto import RULE_SETS

words = pytest.importorskip("tressette_env.vector._col_morto_words")
if not words.COMPILED:
    pytest.skip(
        "numba is not installed (or TRESSETTE_NUMBA=0): observe runs the NumPy path only", allow_module_level=True
    )


def both(monkeypatch, batch: ColMortoBatch, agents, deals=None) -> tuple[np.ndarray, np.ndarray]:
    """The observation by the compiled path and by the NumPy path."""
    monkeypatch.setattr(col_morto, "_COMPILED_WORDS", words)
    fast = batch.observe(agents, deals)
    monkeypatch.setattr(col_morto, "_COMPILED_WORDS", None)
    slow = batch.observe(agents, deals)
    return fast, slow


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_compiled_observation_is_the_numpy_one(monkeypatch, rules):
    batch = ColMortoBatch(24, seed=len(rules), illegal_action="renuncio", **rules)
    rng = np.random.default_rng(7)
    views = 0
    for step in range(160):
        actions = batch.sample_actions(rng)
        wrong = rng.random(batch.n) < 0.01  # a renuncio now and then ends a hand early
        actions[wrong] = rng.integers(0, FAMILY_NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(batch.n) < 0.7 if step % 3 == 0 else None
        batch.step(actions, active=active, autoreset=step % 50 != 49)
        if (batch.turn >= 0).all():
            fast, slow = both(monkeypatch, batch, None)
            assert np.array_equal(fast, slow), f"step {step}: the player on turn"
            views += 1
        for player in range(batch.num_agents):
            fast, slow = both(monkeypatch, batch, player)
            assert np.array_equal(fast, slow), f"step {step}: player {player}"
        chosen = rng.choice(batch.n, 5, replace=False)
        agents = rng.integers(0, batch.num_agents, 5)
        fast, slow = both(monkeypatch, batch, agents, chosen)
        assert np.array_equal(fast, slow), f"step {step}: deals {chosen.tolist()}"
        if not (batch.turn >= 0).all():
            batch.reset(deals=batch.turn < 0)
    assert views > 100


def test_observe_takes_the_compiled_path_with_numba():
    batch = ColMortoBatch(2, seed=0)
    batch.observe()
    assert col_morto._compiled_words() is words
