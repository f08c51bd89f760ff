"""A huge chosen deal given to a batched engine's ``reset`` is refused in a message of one short line."""

import pytest

from tressette_env import catalog
from tressette_env.vector import TressetteBatch

GAMES = [
    "tressette",
    "tressette_in_due",
    "tressette_col_morto",
    "tressette_a_perdere",
    "calabresella",
    "tressette_a_chiamare",
]


@pytest.mark.parametrize("game", GAMES)
def test_a_huge_chosen_deal_is_refused_in_a_message_cut_short(game):
    """Two million ids, or five hands of a million: named cut short (``messages.shown``; it was quoted whole, 17 MB)."""
    batch = (TressetteBatch if game == "tressette" else catalog.entry(game).batch_type())(2, seed=0)
    for hands in (list(range(2 * 10**6)), [list(range(10**6))] * 5):
        with pytest.raises(ValueError) as error:
            batch.reset(hands=hands)
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
