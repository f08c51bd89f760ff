"""Dealing: ten cards each, the dealer, both first-lead rules, chosen deals and their errors."""

import random

import pytest

from tests.helpers import SUITS_DEAL, fill, play_out
from tressette_env.engine import PLAYING, Rules, new_game, next_hand
from tressette_env.engine.cards import FOUR_OF_DENARI, FULL_DECK


def test_a_shuffled_deal_gives_ten_distinct_cards_to_each_seat():
    for seed in range(50):
        state = new_game(Rules(), seed)
        assert [h.bit_count() for h in state.hands] == [10, 10, 10, 10]
        assert state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3] == FULL_DECK
        assert state.dealt == state.hands


def test_seeds_are_reproducible_and_the_dealer_is_drawn():
    assert new_game(seed=3) == new_game(seed=3)
    assert new_game(seed=3) == new_game(seed=random.Random(3))
    assert {new_game(seed=s).public.dealer for s in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_dealer_right_leads_first(dealer):
    state = new_game(Rules(), hands=SUITS_DEAL, dealer=dealer)
    assert state.public.first_leader == state.public.turn == (dealer + 1) % 4


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_four_of_denari_leads_first(holder):
    deal = fill(**{f"seat_{holder}": "4d"})
    state = new_game(Rules(first_lead="four_of_denari"), hands=deal, dealer=holder)
    assert state.hands[holder] >> FOUR_OF_DENARI & 1
    assert state.public.turn == holder


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_four_of_denari_leads_the_first_hand_of_a_match_only(holder):
    # Seed 000: "Nelle mani successive il mazziere cambia in senso antiorario e a cominciare il
    # gioco è il primo ad aver ricevuto le carte": later hands are led by the seat after the dealer.
    rules = Rules(first_lead="four_of_denari", episode="match", target_score=1000)
    state = new_game(rules, hands=fill(**{f"seat_{holder}": "4d"}), dealer=2)
    assert state.public.turn == holder
    for hand in range(1, 5):
        state = next_hand(play_out(state), hands=fill(**{f"seat_{(holder + hand) % 4}": "4d"}))
        assert state.public.hand_number == hand
        assert state.public.first_leader == state.public.turn == (state.public.dealer + 1) % 4


def test_the_dealer_moves_one_seat_every_hand():
    state = new_game(Rules(episode="match", target_score=1000), seed=0, dealer=2)
    dealers = []
    for hand in range(6):
        assert state.public.status == PLAYING
        dealers.append(state.public.dealer)
        assert state.public.turn == (state.public.dealer + 1) % 4
        state = next_hand(play_out(state), seed=hand)
    assert dealers == [2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize(
    "deal, message",
    [
        ("not a deal", "a deal is 4 lists of 10 card ids"),
        ([[0] * 10] * 3, "a deal is 4 lists of 10 card ids"),
        ([list(range(10)), list(range(10, 20)), list(range(20, 30)), list(range(30, 39))], "hand 3 of the deal has 9"),
        (
            [list(range(10)), list(range(10, 20)), list(range(20, 30)), list(range(31, 41))],
            "card id 40; card ids are 0",
        ),
        (
            [list(range(10)), list(range(10, 20)), list(range(20, 30)), [0, *range(31, 40)]],
            r"card 0 is dealt in hand 0 and in hand 3",
        ),
        (
            [[0, 0, *range(2, 10)], list(range(10, 20)), list(range(20, 30)), list(range(30, 40))],
            r"card 0 is dealt twice in hand 0",
        ),
        ([list(range(10)), list(range(10, 20)), list(range(20, 30)), [30.0, *range(31, 40)]], "holds 30.0; card ids"),
        ([list(range(10)), list(range(10, 20)), list(range(20, 30)), [True, *range(31, 40)]], "holds True"),
        ([list(range(10)), list(range(10, 20)), list(range(20, 30)), -1], "hand 3 of the deal has no cards"),
        ([list(range(10)), list(range(10, 20)), list(range(20, 30)), "abcdefghij"], r"hand 3 of the deal is text"),
    ],
)
def test_bad_deals_are_named(deal, message):
    with pytest.raises(ValueError, match=message):
        new_game(Rules(), hands=deal)


@pytest.mark.parametrize(
    "deal", [list(range(10**6)), [list(range(10**5))] * 4, "x" * 10**6, [list(range(10)), [], [], ["y" * 10**6] * 10]]
)
def test_a_huge_bad_deal_is_quoted_cut_short(deal):
    """The message quotes the bad value cut short (``messages.shown``): it once held the whole input (8 MB here)."""
    with pytest.raises(ValueError) as error:
        new_game(Rules(), hands=deal)
    assert "\n" not in str(error.value) and len(str(error.value)) < 300


@pytest.mark.parametrize("dealer", [-1, 4, 1.0, "0", True])
def test_bad_dealer(dealer):
    with pytest.raises(ValueError, match="dealer must be a seat 0..3"):
        new_game(Rules(), hands=SUITS_DEAL, dealer=dealer)
