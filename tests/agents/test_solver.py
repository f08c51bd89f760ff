"""The double-dummy solver against a plain minimax, and on hand-built positions."""

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import SUITS_DEAL, hands, play
from tressette_env.agents.solver import best_moves, solve, solve_moves, solve_state, solve_state_moves
from tressette_env.engine import (
    PLAYING,
    STRENGTH,
    SUIT_MASK,
    THIRDS,
    Rules,
    apply,
    cards_of,
    legal_actions,
    mask_of,
    new_game,
    parse_card,
    parse_cards,
)

# ------------------------------------------------------------------------------------------
# A plain minimax: every legal card, no pruning, no table, nothing shared with the solver.


def minimax(hands, leader, trick):
    """Thirds team 0 takes from here on, both teams playing perfectly."""
    hands = list(hands)
    trick = list(trick)
    if not trick and not any(hands):
        return 0
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    follow = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    values = []
    for card in cards_of(follow or hand):
        hands[seat] = hand & ~(1 << card)
        cards = [*trick, card]
        if len(cards) == 4:
            led = cards[0] // 10
            best = max((c for c in cards if c // 10 == led), key=lambda c: STRENGTH[c])
            winner = (leader + cards.index(best)) % 4
            taken = sum(THIRDS[c] for c in cards) + (3 if not any(hands) else 0)
            value = (taken if winner % 2 == 0 else 0) + minimax(hands, winner, [])
        else:
            value = minimax(hands, leader, cards)
        values.append(value)
        hands[seat] = hand
    return max(values) if seat % 2 == 0 else min(values)


def minimax_after_trick(hands, leader, trick):
    """``minimax`` that accepts a complete trick (settles it first)."""
    if len(trick) < 4:
        return minimax(hands, leader, trick)
    led = trick[0] // 10
    best = max((c for c in trick if c // 10 == led), key=lambda c: STRENGTH[c])
    winner = (leader + trick.index(best)) % 4
    taken = sum(THIRDS[c] for c in trick) + (3 if not any(hands) else 0)
    return (taken if winner % 2 == 0 else 0) + minimax(hands, winner, [])


def reference_moves(hands, leader, trick):
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    follow = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    in_play = sum(THIRDS[c] for h in hands for c in cards_of(h)) + sum(THIRDS[c] for c in trick) + 3
    out = {}
    for card in cards_of(follow or hand):
        after = list(hands)
        after[seat] = hand & ~(1 << card)
        value = minimax_after_trick(after, leader, [*trick, card])
        out[card] = value if seat % 2 == 0 else in_play - value
    return out


def random_ending(seed, cards_left):
    """A random deal played with random legal cards until ``cards_left`` cards remain in the hands."""
    rng = random.Random(seed)
    state = new_game(Rules(accusi=False, signals=False), seed=seed)
    while sum(h.bit_count() for h in state.hands) > cards_left:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_value_and_move_values_match_plain_minimax(seed):
    # 4 to 12 cards left: the last one to three tricks, often with a trick half played.
    state = random_ending(seed, 4 + seed % 9)
    p = state.public
    assert solve(state.hands, p.leader, p.trick).value == minimax(state.hands, p.leader, p.trick)
    assert solve_moves(state.hands, p.leader, p.trick) == reference_moves(state.hands, p.leader, p.trick)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40, 100))
def test_four_trick_endings_match_plain_minimax(seed):
    state = random_ending(seed, 13 + seed % 4)
    p = state.public
    assert solve(state.hands, p.leader, p.trick).value == minimax(state.hands, p.leader, p.trick)
    assert solve_moves(state.hands, p.leader, p.trick) == reference_moves(state.hands, p.leader, p.trick)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), cards_left=st.integers(1, 11))
def test_property_solver_equals_minimax(seed, cards_left):
    state = random_ending(seed, cards_left)
    p = state.public
    result = solve(state.hands, p.leader, p.trick, p.thirds)
    assert result.value == minimax(state.hands, p.leader, p.trick)
    assert sum(result.thirds) == 35
    assert result.points == (result.thirds[0] // 3, result.thirds[1] // 3)
    # The best card reaches the position's value for the team on turn.
    seat = (p.leader + len(p.trick)) % 4
    values = solve_moves(state.hands, p.leader, p.trick, p.thirds)
    assert max(values.values()) == result.thirds[seat % 2]
    assert set(values) == {a % 40 for a in legal_actions(state)}


def test_solve_state_agrees_with_playing_the_best_cards_out():
    # From the fifth trick, play the solver's best card at every turn: the hand ends on the value.
    state = new_game(Rules(accusi=False), seed=11)
    rng = random.Random(11)
    while state.public.tricks_done < 6:
        state = apply(state, rng.choice(legal_actions(state)))
    expected = solve_state(state).thirds
    while state.public.status == PLAYING:
        p = state.public
        state = apply(state, best_moves(state.hands, p.leader, p.trick, p.thirds)[0])
        assert solve_state(state).thirds == expected
    assert state.public.result.card_thirds == expected


# ------------------------------------------------------------------------------------------
# Hand-built positions


@pytest.mark.parametrize("leader", range(4))
def test_whole_suits_the_leader_takes_everything(leader):
    masks = [mask_of(h) for h in SUITS_DEAL]
    result = solve(masks, leader)
    team = leader % 2
    assert result.thirds[team] == 35 and result.thirds[1 - team] == 0
    assert result.points[team] == 11
    # Every card of the leader is as good as any other: all take the rest.
    assert set(solve_moves(masks, leader).values()) == {35}


def test_the_last_trick_is_worth_three_more():
    h = [parse_cards("4d"), parse_cards("5d"), parse_cards("6d"), parse_cards("7d")]
    assert solve(h, leader=0).thirds == (0, 3)  # the 7 takes: seat 3, team 1
    assert solve(h, leader=0, taken=(20, 12)).thirds == (20, 15)


def test_catching_the_asso_or_waiting_for_it():
    h = [parse_cards("3d 4c"), parse_cards("Ad 5c"), parse_cards("4d 6c"), parse_cards("5d 7c")]
    values = solve_moves(h, leader=0)
    # Leading the 3 catches the bare asso (4 thirds), but seat 3 then takes the last trick;
    # leading the 4c loses it to the 7c, and the 3d then catches the asso on the last trick.
    assert values == {parse_card("3d"): 4, parse_card("4c"): 7}
    assert solve(h, leader=0).value == 7
    assert best_moves(h, leader=0) == [parse_card("4c")]


def test_asso_and_re_are_not_equivalent_but_three_and_two_are():
    # Seat 0 holds 3d 2d (equivalent: both worth one third, adjacent) and Ad Rd (not equivalent).
    h = hands("3d 2d Ad Rd", "4c 5c 6c 7c", "4s 5s 6s 7s", "4b 5b 6b 7b")
    values = solve_moves([mask_of(x) for x in h], leader=0)
    assert values[parse_card("3d")] == values[parse_card("2d")] == 6 + 3
    assert len(values) == 4


def test_a_trick_half_played():
    # Seat 0 led the 2 of denari; seat 1 holds the 3 and the 4: it must choose.
    h = [parse_cards("Ac"), parse_cards("3d 4c"), parse_cards("Rd 5c"), parse_cards("5d 6c")]
    values = solve_moves(h, leader=0, trick=[parse_card("2d")])
    assert values == {parse_card("3d"): 3}  # only the 3d follows suit
    h = [parse_cards("Ac"), parse_cards("3d 4d"), parse_cards("Rd 5c"), parse_cards("5d 6c")]
    values = solve_moves(h, leader=0, trick=[parse_card("2d")])
    assert values == reference_moves(h, 0, [parse_card("2d")])
    assert best_moves(h, leader=0, trick=[parse_card("2d")]) == [max(values, key=values.get)]


def test_a_finished_hand_is_worth_nothing_more():
    state = new_game(seed=5)
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    result = solve_state(state)
    assert result.thirds == state.public.thirds and result.value == 0 and result.remaining == 0
    assert solve_state_moves(state) == {}


def test_horizon_is_exact_within_reach_and_bounded_beyond():
    state = random_ending(3, 20)  # five tricks left
    p = state.public
    exact = solve_moves(state.hands, p.leader, p.trick)
    assert solve_moves(state.hands, p.leader, p.trick, horizon=5) == exact
    rough = solve_moves(state.hands, p.leader, p.trick, horizon=2)
    assert set(rough) == set(exact)
    assert all(0 <= v <= 35 for v in rough.values())
    with pytest.raises(ValueError, match="horizon"):
        solve_moves(state.hands, p.leader, p.trick, horizon=0)


def test_from_the_opening_lead():
    # A full deal: the suits deal is instant; a seeded deal from the seventh trick is quick.
    state = new_game(seed=2)
    rng = random.Random(2)
    for _ in range(24):
        state = apply(state, rng.choice(legal_actions(state)))
    result = solve_state(state)
    assert sum(result.thirds) == 35 and result.nodes > 0
    state = new_game(Rules(accusi=False), hands=SUITS_DEAL, dealer=3)
    assert solve_state(state).thirds == (35, 0)
    state = play(state, "Ad", "Ac", "As", "Ab")  # seat 0 takes the first trick
    assert solve_state(state).thirds == (35, 0)


@pytest.mark.parametrize(
    ("hands_", "leader", "trick", "message"),
    [
        ([1, 1, 2, 4], 0, (), "shares cards"),
        ([1, 2, 4], 0, (), "4 card masks"),
        ([1, 2, 4, 8], 4, (), "seat 0..3"),
        ([1, 2, 4, 8 | 16], 0, (), "do not fit"),
        ([1, 2, 4, 0], 0, (3,), "do not fit"),
        ([0, 2, 4, 8], 0, (2,), "on the table"),
        ([1 << 40, 2, 4, 8], 0, (), "40-bit"),
    ],
)
def test_bad_positions_are_rejected(hands_, leader, trick, message):
    with pytest.raises(ValueError, match=message):
        solve(hands_, leader, trick)


def test_the_solver_needs_only_the_standard_library_without_numba():
    code = (
        "import sys\n"
        "for name in ('numba', 'numpy', 'gymnasium', 'pettingzoo', 'torch'):\n"
        "    sys.modules[name] = None\n"
        "from tressette_env.agents import solver_core\n"
        "from tressette_env.agents.solver import solve\n"
        "print(solver_core.COMPILED, solve([0x3FF << (10 * s) for s in range(4)], 0).thirds)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False (35, 0)"
