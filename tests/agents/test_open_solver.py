"""The open-hands solver: exact against plain minimax (two and three seats) and against the four-seat solver."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.agents.open_solver import best_open_move, open_moves, solve_open
from tressette_env.agents.solver import solve, solve_moves
from tressette_env.engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of, mask_of, parse_cards


def minimax(hands, leader, trick, sides, last=3):
    """Side 0's thirds from here by plain minimax (no table, no pruning): the reference (``last``: the last trick's bonus)."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    legal = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    values = []
    for card in cards_of(legal or hand):
        rest = list(hands)
        rest[seat] ^= 1 << card
        played = [*trick, card]
        if len(played) < n:
            values.append(minimax(rest, leader, played, sides, last))
            continue
        led = played[0] // 10
        best = max(range(n), key=lambda i: STRENGTH[played[i]] if played[i] // 10 == led else -1)
        winner = (leader + best) % n
        taken = sum(THIRDS[c] for c in played) + (last if not any(rest) else 0)
        values.append(
            (taken if sides[winner] == 0 else 0) + (minimax(rest, winner, [], sides, last) if any(rest) else 0)
        )
    return max(values) if sides[seat] == 0 else min(values)


def random_position(rng, seats, cards):
    deck = list(range(40))
    rng.shuffle(deck)
    return [mask_of(deck[cards * s : cards * (s + 1)]) for s in range(seats)]


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    seats=st.sampled_from([2, 3, 5]),
    cards=st.integers(1, 4),
    leader=st.integers(0, 4),
    last=st.sampled_from([3, 3, 0, 7, 14]),
)
def test_exact_against_plain_minimax(seed, seats, cards, leader, last):
    # Two seats (in due), three (Calabresella: one against two), five (a chiamare: two against three);
    # ``last``: the last trick's 3 and the thirds of the cards face down for its winner (Calabresella).
    rng = random.Random(seed)
    cards = min(cards, 3) if seats == 5 else cards
    hands = random_position(rng, seats, cards)
    leader %= seats
    if seats == 2:
        sides = (0, 1)
    elif seats == 3:
        sides = tuple(rng.choice([(0, 1, 1), (0, 0, 1), (1, 0, 1)]))
    else:
        team = rng.sample(range(5), 2)
        sides = tuple(0 if s in team else 1 for s in range(5))
    value = minimax(hands, leader, [], sides, last)
    assert solve_open(hands, leader, sides=sides, last_trick=last)[0] == value
    moves = open_moves(hands, leader, sides=sides, last_trick=last)
    me = sides[leader]
    total = sum(THIRDS[c] for c in cards_of(sum(hands))) + last
    assert max(moves.values()) == (value if me == 0 else total - value)


def test_a_bad_last_trick_bonus_is_refused():
    hands = [parse_cards("3d"), parse_cards("2d")]
    for bad in (-1, 2.5, True, 1001, 2**22 + 3, 2**64):  # too large: past the searches' integers
        with pytest.raises(ValueError, match="last_trick"):
            solve_open(hands, 0, sides=(0, 1), last_trick=bad)
        with pytest.raises(ValueError, match=r"an int 0\.\.1000"):
            best_open_move(hands, 0, sides=(0, 1), last_trick=bad)
    assert solve_open(hands, 0, sides=(0, 1), last_trick=1000) == (1002, 0)  # the 3 takes the 2: 2 thirds + 1000


def test_the_four_seat_game_agrees_with_the_double_dummy_solver():
    rng = random.Random(0)
    for _ in range(150):
        hands = random_position(rng, 4, rng.randint(1, 5))
        leader = rng.randrange(4)
        assert solve_open(hands, leader, sides=(0, 1, 0, 1)) == solve(hands, leader).thirds
        assert open_moves(hands, leader, sides=(0, 1, 0, 1)) == solve_moves(hands, leader)


def test_two_seats_ten_cards_each_is_solved():
    hands = [parse_cards("3d 2d Ad Rd Cd Fd 7d 3c 2c Ac"), parse_cards("3s 2s As Rs Cs Fs 7s 3b 2b Ab")]
    # Nobody can follow the other's suits: the leader takes every trick, 13 + 13 thirds and the last 3.
    assert solve_open(hands, 0, sides=(0, 1)) == (29, 0)
    assert solve_open(hands, 1, sides=(0, 1)) == (0, 29)


def test_bad_positions_are_named():
    with pytest.raises(ValueError, match="sides are 0 or 1"):
        solve_open([1, 2], 0, sides=(0, 2))
    with pytest.raises(ValueError, match="apart from the others"):
        solve_open([1, 1], 0, sides=(0, 1))
    with pytest.raises(ValueError, match="do not fit the trick"):
        solve_open([1, 6], 0, sides=(0, 1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), cards=st.integers(1, 6), least=st.booleans())
def test_the_best_move_is_the_preferred_of_the_best_valued(seed, cards, least):
    from tressette_env.agents.open_solver import best_open_move

    rng = random.Random(seed)
    hands = random_position(rng, 2, cards)
    leader = rng.randrange(2)
    values = open_moves(hands, leader, sides=(0, 1))
    target = (min if least else max)(values.values())
    prefer = lambda c: (THIRDS[c], STRENGTH[c])  # noqa: E731
    chosen = best_open_move(hands, leader, sides=(0, 1), prefer=prefer, least=least)
    assert values[chosen] == target
    assert chosen == min((c for c, v in values.items() if v == target), key=prefer)
