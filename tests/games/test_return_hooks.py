"""``Game.zero_sum`` and ``Game.return_bound`` (OpenSpiel's utility and its range) hold of random hands of every game."""

import random

import pytest

from tressette_env import catalog
from tressette_env.engine import apply, is_over, legal_actions, new_game

from .family import RULE_SETS

HAND_RULE_SETS = [
    (name, switches)
    for name, sets in RULE_SETS.items()
    for switches in sets
    if switches.get("episode", "hand") == "hand"
]


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=lambda i: f"{i[0]}-{len(i[1])}-{sorted(i[1])}")
def test_returns_within_the_bound_and_zero_sum_where_said(item):
    name, switches = item
    rules = catalog.entry(name).make_rules(**switches)
    game = type(rules).game
    bound = game.return_bound(rules)
    rng = random.Random(1)
    sums = set()
    for _ in range(30):
        state = new_game(rules, rng)
        while not is_over(state):
            state = apply(state, rng.choice(legal_actions(state)))
        returns = game.returns(state.public)
        assert all(abs(r) <= bound for r in returns), (returns, bound)
        sums.add(sum(returns))
    if game.zero_sum(rules):
        assert sums == {0}
    else:
        assert sums != {0}  # the hook says no more than the game does: some hand's returns do not cancel


def test_the_zero_sum_games():
    said = {
        (name, tuple(sorted(s.items()))): type(r := catalog.entry(name).make_rules(**s)).game.zero_sum(r)
        for name, s in HAND_RULE_SETS
    }
    assert said[("tressette", ())] and said[("tressette_col_morto", (("players", 2),))]
    assert not said[("tressette_col_morto", ())] and not said[("tressette_a_perdere", ())]
    assert said[("calabresella", ())] and said[("tressette_a_chiamare", ())]


def test_bounds_follow_the_switches():
    """A drawn fourth card adds a quattro to a tris in in due (7 for one rank); stakes scale with the multipliers."""
    in_due = catalog.entry("tressette_in_due")
    default, drawn = in_due.make_rules(), in_due.make_rules(accusi="dealt_and_drawn")
    assert in_due.game().return_bound(drawn) == in_due.game().return_bound(default) + 9
    calabresella = catalog.entry("calabresella")
    stake = calabresella.game().return_bound(calabresella.make_rules(multipliers={"chiamo": 20}))
    assert stake == 2 * 2 * 20
    assert calabresella.game().return_bound(calabresella.make_rules(scoring="difference")) == 2 * 2 * 35
