"""Tressette mini (``games.mini``): its deck, its deals, a hand-built hand, and the four-seat game at full size."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test

from tressette_env.engine import Rules, apply, legal_actions, new_game
from tressette_env.engine.cards import card_code
from tressette_env.evaluation.duplicate import duplicate
from tressette_env.games import mini
from tressette_env.games.mini import MiniRules


def code(name: str) -> int:
    return next(c for c in range(40) if card_code(c) == name)


def test_the_deck_is_the_strongest_ranks_of_the_first_suits():
    assert [card_code(c) for c in mini.deck(MiniRules(suits=1, ranks=2))] == ["2d", "3d"]
    assert [card_code(c) for c in mini.deck(MiniRules(suits=2, ranks=4))] == [
        "Ad", "2d", "3d", "Rd", "Ac", "2c", "3c", "Rc",
    ]  # fmt: skip
    assert len(mini.deck(MiniRules(players=4, suits=4, ranks=10))) == 40


@pytest.mark.parametrize(
    ("switches", "words"),
    [
        ({"suits": 5}, "suits=5: must be an int 1..4"),
        ({"ranks": 11}, "ranks=11: must be an int 1..10"),
        ({"suits": 3, "ranks": 3}, "do not deal evenly to 2 players"),
        ({"suits": 1, "ranks": 3, "out": 2}, "positive multiple of players"),
        ({"out": -1}, r"out=-1: must be an int 0\.\.10000"),
        ({"players": 3}, "must be one of 2, 4"),
        ({"suits": 0}, "suits=0: must be an int 1..4"),
    ],
)
def test_a_bad_deck_is_refused_naming_what_is_allowed(switches, words):
    with pytest.raises(ValueError, match=words):
        MiniRules(**switches)


def test_a_chosen_deal_must_hold_the_decks_cards_in_even_hands():
    rules = MiniRules(suits=2, ranks=2)  # 3d 2d 3c 2c
    with pytest.raises(ValueError, match="not in this deck"):
        new_game(rules, seed=0, hands=[[code("3d"), code("Ad")], [code("3c"), code("2c")]])
    with pytest.raises(ValueError, match="exactly 2 card ids"):
        new_game(rules, seed=0, hands=[[code("3d")], [code("3c"), code("2c"), code("2d")]])
    with pytest.raises(ValueError, match="dealt exactly once"):
        new_game(rules, seed=0, hands=[[code("3d"), code("2d")], [code("3d"), code("2c")]])


@pytest.mark.parametrize(
    "switches",
    [{}, {"players": 4}, {"suits": 1, "ranks": 4}, {"suits": 3, "ranks": 2}, {"out": 2}, {"players": 4, "out": 4}],
)
def test_unrank_numbers_every_deal_once(switches):
    rules = MiniRules(**switches)
    seen = {mini.unrank(rules, i) for i in range(mini.deals(rules))}
    assert len(seen) == mini.deals(rules)
    for hands in seen:
        held = 0
        for hand in hands:
            assert hand.bit_count() == rules.hand_size and not hand & held
            held |= hand
        assert held & ~mini.deck_mask(rules) == 0 and held.bit_count() == len(mini.deck(rules)) - rules.out


@pytest.mark.parametrize("index", [-1, 70, 10**9, 1.0, True])
def test_a_deal_number_out_of_range_is_refused(index):
    with pytest.raises(ValueError, match="numbered 0 to 69"):
        mini.unrank(MiniRules(), index)


def test_cards_out_of_play_are_hidden_from_both_players_and_the_sampler_deals_them_only_from_the_deck():
    from tressette_env.agents.sampling import DealSampler
    from tressette_env.engine import view

    rules = MiniRules(out=2)  # 8 cards: 3 each, 2 face down
    state = new_game(rules, seed=4)
    state = apply(state, legal_actions(state)[0])
    seen = view(state, state.public.turn)
    out = mini.deck_mask(rules) & ~(state.hands[0] | state.hands[1] | state.public.all_played)
    assert out.bit_count() == 2 and seen.unseen & out == out  # the seat cannot tell them from the opponent's
    drawn = set()
    rng = random.Random(0)
    for _ in range(60):
        hands, _ = DealSampler(seen).sample_with_pile(rng)
        other = hands[1 - seen.seat]
        assert other & ~mini.deck_mask(rules) == 0 and other.bit_count() == 3 - 1 + (seen.seat == 0)
        drawn.add(other)
    assert len(drawn) > 1


def test_a_hand_built_deal_plays_by_the_familys_rules():
    """Two suits of 3 and 2: seat 0 leads (the dealer is the last seat), the follower must follow suit."""
    rules = MiniRules(suits=2, ranks=2)
    hands = [[code("3d"), code("2c")], [code("2d"), code("3c")]]
    state = new_game(rules, seed=0, hands=hands)
    assert state.public.turn == 0 and state.public.dealer == 1
    state = apply(state, code("3d"))
    assert sorted(legal_actions(state)) == [code("2d")]  # 3c is no denari
    state = apply(state, code("2d"))  # the 3 takes the 2: 2 thirds to seat 0, who leads again
    assert state.public.thirds == (2, 0) and state.public.turn == 0
    state = apply(state, code("2c"))
    state = apply(state, code("3c"))  # 2 thirds and the last trick's 3 to seat 1
    p = state.public
    assert p.result.card_thirds == (2, 5) and p.result.points == (0, 1)
    assert rules.game.returns(p) == (-1.0, 1.0)


def test_four_players_are_two_teams_partners_opposite():
    rules = MiniRules(players=4)
    state = new_game(rules, seed=3)
    rng = random.Random(3)
    while state.public.status == 0:
        state = apply(state, rng.choice(legal_actions(state)))
    a, b = rules.game.returns(state.public)[:2]
    assert rules.game.returns(state.public) == (a, b, a, b) and a == -b


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_at_full_size_it_is_the_four_seat_game_without_signals_and_declarations(seed):
    """Dealt the same cards, Tressette mini of four suits of ten ranks plays the four-seat game's hand exactly."""
    mini_rules = MiniRules(players=4, suits=4, ranks=10)
    four_seat = Rules(signals=False, accusi=False)
    a = new_game(mini_rules, seed=seed)
    hands = [[c for c in range(40) if h >> c & 1] for h in a.hands]
    b = new_game(four_seat, seed=0, hands=hands, dealer=a.public.dealer)
    rng = random.Random(seed)
    while a.public.status == 0:
        assert sorted(legal_actions(a)) == sorted(legal_actions(b)) and a.public.turn == b.public.turn
        action = rng.choice(legal_actions(a))
        a, b = apply(a, action), apply(b, action)
        assert a.public.thirds == b.public.thirds
    assert b.public.status != 0 and a.public.result.points == b.public.result.points
    assert mini_rules.game.returns(a.public) == four_seat.game.returns(b.public)


def test_a_large_deck_is_shuffled_and_a_small_one_drawn_in_one_draw():
    class Counting(random.Random):
        calls: list

        def randrange(self, *args):
            self.calls.append(("randrange", args))
            return super().randrange(*args)

        def shuffle(self, x):
            self.calls.append(("shuffle", len(x)))
            return super().shuffle(x)

    for switches, kind in (({"players": 4}, "randrange"), ({"players": 4, "suits": 4, "ranks": 10}, "shuffle")):
        rng = Counting(0)
        rng.calls = []
        rules = MiniRules(**switches)
        rules.game.new_game(rules, rng, {})
        assert [call[0] for call in rng.calls] == [kind]
    assert MiniRules(players=4).game.deal_outcomes(MiniRules(players=4)) == 2520
    assert MiniRules().game.deal_outcomes(MiniRules(players=4, suits=4, ranks=10)) == 40


def test_its_environments_pass_pettingzoos_api_tests_and_it_plays_in_the_duplicate_evaluation():
    api_test(mini.ENTRY.env_functions().env(), num_cycles=100)
    parallel_api_test(mini.ENTRY.env_functions().parallel_env(players=4), num_cycles=50)
    from tressette_env.agents import RandomPlayer
    from tressette_env.agents.generic import GenericHeuristic

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = duplicate(
            GenericHeuristic(), RandomPlayer(), boards=20, seed=0, rules=MiniRules(players=4), progress=False
        )
    assert result.boards == 20
