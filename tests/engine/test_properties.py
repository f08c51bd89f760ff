"""Invariants of random legal play under random rule switches (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.engine import (
    CALL_OUT,
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    SUIT_MASK,
    Rules,
    apply,
    legal_actions,
    new_game,
    next_hand,
    view,
)
from tressette_env.engine.cards import FULL_DECK
from tressette_env.engine.game import legal_actions_mask, legal_mask_for
from tressette_env.engine.switches import make_effective

rules_strategy = st.builds(
    lambda **switches: make_effective(Rules, **switches),  # a switch with no effect left at its default
    target_score=st.sampled_from([11, 21, 31]),
    episode=st.sampled_from(["hand", "match"]),
    accusi=st.booleans(),
    signals=st.booleans(),
    first_lead=st.sampled_from(["dealer_right", "four_of_denari"]),
    cappotto_bonus=st.sampled_from([0, 11]),
)


def expected_card_mask(hand, trick):
    """The follow-suit rule written out plainly."""
    if not trick:
        return hand
    led = trick[0] // 10
    same = [c for c in range(40) if hand >> c & 1 and c // 10 == led]
    return sum(1 << c for c in same) if same else hand


def play_hand(state, rng):
    """Random legal play to the end of the hand, checking invariants at every step."""
    plays = []
    while state.public.status == PLAYING:
        p = state.public
        hand = state.hands[p.turn]
        legal = legal_actions(state)
        mask = legal_actions_mask(state)
        # The mask is the follow-suit rule (cards part) plus truthful signals on the lead only.
        assert mask & ((1 << 40) - 1) == expected_card_mask(hand, p.trick)
        if p.trick or not p.rules.signals:
            assert mask >> 40 == 0
        assert legal_mask_for(hand, p) == mask == legal_mask_for(view(state, p.turn).hand, view(state, p.turn).public)
        action = rng.choice([a for a in legal if a != CALL_OUT])
        before = state
        state = apply(state, action)
        assert apply(before, action) == state  # pure: the same state and action give the same result
        plays.append((p.turn, action % 40))
        # Hands shrink by the played card and the cards in hand plus played make the deck.
        held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
        assert held & state.public.all_played == 0 and held | state.public.all_played == FULL_DECK
    return state, plays


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant(rules, seed):
    rng = random.Random(seed)
    state = new_game(rules, rng)
    for _ in range(3):  # up to three hands of a match
        dealt = state.dealt
        state, plays = play_hand(state, rng)
        p = state.public
        # 40 card plays, each card once, each from the hand it was dealt to.
        assert len(plays) == 40 and len({c for _, c in plays}) == 40
        assert all(dealt[seat] >> card & 1 for seat, card in plays)
        # Card points of the two teams add up to 11 (35 thirds, rounded down separately).
        r = p.result
        assert sum(r.card_thirds) == 35
        assert r.card_thirds[0] // 3 + r.card_thirds[1] // 3 == 11
        if not rules.accusi and not rules.cappotto_bonus:
            assert sum(r.points) == 11
        assert r.points[0] >= r.card_thirds[0] // 3 and r.points[1] >= r.card_thirds[1] // 3
        if p.status == GAME_OVER:
            break
        assert p.status == HAND_OVER
        state = next_hand(state, rng)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_leader_signals_only_about_its_lead_suit_truthfully(seed):
    rng = random.Random(seed)
    state = new_game(Rules(), rng)
    while state.public.status == PLAYING:
        p = state.public
        hand = state.hands[p.turn]
        action = rng.choice(legal_actions(state))
        signal, card = divmod(action, 40)
        if signal:
            assert not p.trick
            keeps = hand & SUIT_MASK[card // 10] & ~(1 << card)
            assert (signal == 3) == (keeps == 0)
        state = apply(state, action)
