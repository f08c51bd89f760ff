"""The largest whole-number switches (``engine.switches.MOST``) play whole hands in the batched engines, exact.

Past ``MOST`` a switch is refused with the other rule checks, before any deal is made; a hostile
value (10**30, 2**62) once passed them and then overflowed int64 at a hand's end, after the
step had changed the batch, or wrapped a stake silently.
"""

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.engine.switches import MOST
from tressette_env.vector import TressetteBatch

CONTRACTS = {
    "calabresella": ("chiamo", "solo", "solissimo"),
    "tressette_a_chiamare": ("chiamo", "sola"),
}
CASES = [
    ("tressette", {"cappotto_bonus": MOST}),
    ("tressette_in_due", {"cappotto_bonus": MOST}),
    ("tressette_col_morto", {"cappotto_bonus": MOST}),
    ("tressette_a_perdere", {"zero_point_charge": MOST, "objective": "avoid"}),  # (the switch first)
    ("calabresella", {"multipliers": dict.fromkeys(CONTRACTS["calabresella"], MOST)}),
    ("tressette_a_chiamare", {"multipliers": dict.fromkeys(CONTRACTS["tressette_a_chiamare"], MOST)}),
]


def batch(game: str, n: int, **rules):
    return (TressetteBatch if game == "tressette" else catalog.entry(game).batch_type())(n, seed=0, **rules)


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_the_largest_values_play_whole_hands(game, rules):
    b = batch(game, 16, **rules)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        result = b.step(b.sample_actions(rng))
        rewards = np.asarray(result.rewards, dtype=np.float64)
        assert np.isfinite(rewards).all() and np.abs(rewards).max() <= 100 * MOST
        ended += int(np.asarray(result.terminated).sum())
        if game in CONTRACTS:  # the stakes a hand moves sum to zero, with the largest multipliers too
            assert (rewards.sum(axis=1) == 0).all()
    assert ended > 0


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_past_the_largest_value_the_switch_is_refused_before_any_deal(game, rules):
    (name, value), *_ = rules.items()
    past = {k: MOST + 1 for k in value} if isinstance(value, dict) else MOST + 1
    for bad in (past, {k: 10**30 for k in value} if isinstance(value, dict) else 10**30):
        with pytest.raises(ValueError, match=rf"{name}=.*ints? \d+\.\.{MOST}") as error:
            batch(game, 4, **{**rules, name: bad})
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
