"""Invariants of random play in the family's games under random rule switches (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.engine import HAND_OVER, PLAYING, apply, legal_actions, legal_mask_for, new_game, next_hand
from tressette_env.engine.switches import make_effective
from tressette_env.games.col_morto import ColMortoRules
from tressette_env.games.in_due import InDueRules

FULL = (1 << 40) - 1


def effective(rules_type):
    """Build ``rules_type``, leaving at its default a switch with no effect under the others."""
    return lambda **switches: make_effective(rules_type, **switches)


in_due_stock = st.builds(
    effective(InDueRules),
    follow_suit_with_stock=st.booleans(),
    show_drawn=st.booleans(),
    accusi=st.sampled_from(["none", "dealt", "dealt_and_drawn"]),
    objective=st.sampled_from(["take", "avoid"]),
    episode=st.sampled_from(["hand", "match"]),
    target_score=st.sampled_from([11, 21]),
    cappotto_bonus=st.sampled_from([0, 11]),
)
in_due_packets = st.builds(
    effective(InDueRules),
    deal=st.just("packets"),
    packet_deal=st.sampled_from(["dealt", "choose"]),
    pizzichi_pickup=st.booleans(),
    episode=st.sampled_from(["hand", "match"]),
    target_score=st.sampled_from([11, 21]),
)
col_morto = st.builds(
    effective(ColMortoRules),
    players=st.sampled_from([2, 3]),
    dummy_exposed=st.sampled_from(["deal", "after_first_card"]),
    signals=st.booleans(),
    accusi=st.booleans(),
    first_lead=st.sampled_from(["dealer_right", "four_of_denari"]),
    episode=st.sampled_from(["hand", "match"]),
    target_score=st.sampled_from([11, 21]),
    cappotto_bonus=st.sampled_from([0, 11]),
)


@settings(max_examples=40, deadline=None)
@given(rules=st.one_of(in_due_stock, in_due_packets, col_morto), seed=st.integers(0, 2**32 - 1))
def test_every_card_once_follow_suit_and_the_hand_points(rules, seed):
    rng = random.Random(seed)
    state = new_game(rules, seed)
    for _ in range(30):
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            assert legal, "the seat on turn always has a legal action"
            if p.phase == 0 and p.trick:  # the plain card play: follow suit when you can
                assert sum(1 << a for a in legal) == legal_mask_for(state.hands[p.turn], p)
            hands = state.hands
            seen = p.all_played
            for h in hands:  # no card in two places
                assert not h & seen
                seen |= h
            state = apply(state, rng.choice(legal))
        p = state.public
        r = p.result
        assert p.all_played == FULL and sum(r.card_thirds) == 35
        if not any(r.accusi) and (r.cappotto is None or not rules.cappotto_bonus):
            assert sum(r.points) == 11
        if p.status != HAND_OVER:
            break
        state = next_hand(state, rng)
