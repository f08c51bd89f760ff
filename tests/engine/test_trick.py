"""Tricks: the highest card of the led suit takes, its player leads next (RULES.md 3-4, seed 004's example)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.family import RULE_SETS
from tests.helpers import hands, play
from tressette_env import catalog
from tressette_env.engine import Rules, apply, legal_actions, new_game, parse_card, trick_winner
from tressette_env.engine.state import PLAYING


@pytest.mark.parametrize(
    "leader, cards, winner",
    [
        (0, "3d Rd 4d 2d", 0),  # the 3 is the highest card
        (0, "2d 3d Ad Rd", 1),
        (1, "Ad Rd Cd Fd", 1),  # asso over the figures
        (2, "Rd Cd Fd 7d", 2),
        (3, "4d 5d 6d 7d", 2),  # 7 > 6 > 5 > 4; the 7 is seat (3 + 3) % 4 = 2
        (0, "4d 3c 3s 3b", 0),  # off-suit cards never win, even a 3
        (1, "Fc Cc Rc Ac", 0),
        (2, "5s 4s Rd 6s", 1),  # 6s by seat 1
    ],
)
def test_trick_winner_table(leader, cards, winner):
    assert trick_winner(leader, [parse_card(c) for c in cards.split()]) == winner


def test_seed_004_worked_example():
    # Players 1..4 of seed 004 are seats 0, 1, 3, 2: player 1 leads, order 1, 2, 4, 3;
    # players 1 and 4 (seats 0 and 2) are partners. Player 3 (seat 3) deals.
    deal = hands(
        "Ad 3d 5d 6d 7d Fd Cd Ac 2c 3c",
        "Rd 4c 5c 6c 7c Fc Cc Rc As 2s",
        "4d 3s 4s 5s 6s 7s Fs Cs Rs Ab",
        "2d 2b 3b 4b 5b 6b 7b Fb Cb Rb",
    )
    state = new_game(Rules(signals=False, accusi=False), hands=deal, dealer=3)
    assert state.public.turn == 0
    # 1-2. Player 1 leads the 3 di denari; the re, the 4 and the 2 di denari follow.
    state = play(state, "3d", "Rd", "4d", "2d")
    # 3. The trick is player 1's: 3 (1/3) + re (1/3) + 4 (0) + 2 (1/3) = 1 point.
    assert state.public.thirds == (3, 0)
    assert state.public.leader == state.public.turn == 0
    # 4. Player 1 leads the asso: nobody holds the 3 or the 2 any more, so it is safe.
    state = play(state, "Ad", "4c", "4s", "4b")
    assert state.public.leader == 0
    assert state.public.thirds == (6, 0)


def test_carta_tre_the_re_is_master_once_3_2_asso_are_out():
    # Seed 000: once the asso, 2 and 3 are out, the re cannot be taken.
    assert trick_winner(0, [parse_card(c) for c in "Rc Cc Fc 7c".split()]) == 0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), game=st.sampled_from(sorted(RULE_SETS)), pick=st.integers(0, 9))
def test_trick_winners_are_the_winners_of_tricks_completed_tricks(seed, game, pick):
    """``PublicState.trick_winners`` (what the scores count tricks by) reads ``tricks()``'s completed tricks' winners.

    At every state of a random hand of every game of the family and its rule sets, auctions, stocks and packets
    included.
    """
    sets = RULE_SETS[game]
    rules = catalog.entry(game).rules_type()(**sets[pick % len(sets)])
    state = new_game(rules, seed)
    rng = random.Random(seed)
    while state.public.status == PLAYING:
        p = state.public
        n = p.table.seats
        assert p.trick_winners() == [
            trick_winner(leader, cards, n) for leader, cards, _ in p.tricks() if len(cards) == n
        ]
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    p = state.public
    assert len(p.trick_winners()) == p.tricks_done or p.result is None or p.result.renuncio is not None
