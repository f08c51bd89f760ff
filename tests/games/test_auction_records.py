"""``games.auction.with_bid`` builds the records that the ``_replace`` calls it stands for built."""

from __future__ import annotations

import random

import pytest

from tests.games.family import RULE_SETS
from tressette_env import catalog
from tressette_env.engine.game import apply, legal_actions, new_game
from tressette_env.engine.state import PLAYING
from tressette_env.engine.variant import with_extra, with_public
from tressette_env.games import auction
from tressette_env.games.calabresella import AUCTION

CASES = [
    (game, rules)
    for game in ("calabresella", "tressette_a_chiamare")
    for rules in [*RULE_SETS[game], {"auction": "first_taker"}]
]


def _replaced(state, bid, bids, turn):
    """What ``with_bid`` stands for, by ``_replace`` (the code before it)."""
    p = state.public
    state = with_public(state, p._replace(history=p.history + (bid,)))
    state = with_extra(state, bids=bids)
    return with_public(state, state.public._replace(turn=turn))


@pytest.mark.parametrize(("game", "switches"), CASES)
def test_an_open_auction_bid_builds_the_replaced_records(game, switches):
    rules = catalog.entry(game).make_rules(**switches)
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        state = new_game(rules, rng)
        while state.public.status == PLAYING and state.public.table.phase == AUCTION:
            p = state.public
            bid = rng.choice(legal_actions(state))
            bids = tuple(bid if s == p.turn else b for s, b in enumerate(p.table.extra.bids))
            turn = (p.turn + 1) % p.table.seats
            ours = auction.with_bid(state, bid, bids, turn)
            theirs = _replaced(state, bid, bids, turn)
            assert ours == theirs
            assert type(ours.public) is type(theirs.public) and type(ours.public.table) is type(theirs.public.table)
            assert type(ours.public.table.extra) is type(theirs.public.table.extra)
            state = apply(state, bid)
            if state.public.table.phase == AUCTION and state.public.status == PLAYING:
                assert state == theirs  # the core's bid is that record
                checked += 1
    assert checked >= 20  # (a first-taker auction ends at the first bid)
