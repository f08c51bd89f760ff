"""The a perdere heuristic: each of its rules on a hand-built position, and its margin over random play."""

import random

import pytest

from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.agents.a_perdere_heuristic import APerdereHeuristic
from tressette_env.engine import apply, legal_actions, new_game, view
from tressette_env.engine.actions import GIVE
from tressette_env.engine.cards import FULL_DECK, cards_of, parse_card, parse_cards
from tressette_env.evaluation import duplicate
from tressette_env.games.a_perdere import DISCARD, APerdereRules

RNG = random.Random(0)


def deal(*hands: str, players: int = 4, sizes: tuple[int, ...] = ()) -> list[list[int]]:
    """Hands from partial specs (card codes), one per player, each filled up with the lowest cards left.

    ``sizes`` are the hands' sizes (default: 40 // players each).
    """
    sizes = sizes or (40 // players,) * players
    chosen = [cards_of(parse_cards(h)) for h in hands] + [[] for _ in range(players - len(hands))]
    left = cards_of(FULL_DECK & ~parse_cards(" ".join(hands)))
    out = []
    for h, size in zip(chosen, sizes, strict=True):
        need = size - len(h)
        out.append(sorted(h + left[:need]))
        left = left[need:]
    return out


def play(state, *codes: str):
    """Play the cards given, in turn."""
    for code in codes:
        state = apply(state, parse_card(code))
    return state


def choice(state) -> int:
    """The heuristic's action for the seat on turn."""
    seat = state.public.turn
    return APerdereHeuristic().act(view(state, seat), legal_actions(state), RNG)


def test_it_ducks_under_the_winning_card_with_its_highest_loser():
    hands = deal("7d Ab", "3d 6d 5d Ac", "Ad", "2d")
    state = play(new_game(APerdereRules(), 0, hands=hands, dealer=3), "7d")
    assert choice(state) == parse_card("6d")  # 6 and 5 lose to the 7; the 6 is the higher; the 3 would take it


def test_void_it_throws_its_most_dangerous_card():
    hands = deal("7d", "Ac 2s 4b 5b 6b 7b Fb Cb Rb 3b", "Ad", "2d")
    state = play(new_game(APerdereRules(), 0, hands=hands, dealer=3), "7d")
    assert choice(state) == parse_card("Ac")  # no denari: the asso (a whole point) goes


def test_last_to_play_when_every_card_wins_it_takes_with_its_highest():
    hands = deal("4d", "5d", "6d", "3d 2d 7d Rd Ac 2c 3c Rc Cc Fc")
    state = play(new_game(APerdereRules(), 0, hands=hands, dealer=3), "4d", "5d", "6d")
    assert choice(state) == parse_card("3d")  # the trick is its own anyway: shed the 3


def test_when_it_may_still_be_beaten_it_plays_its_lowest_winner():
    hands = deal("4d", "7d 2d 3d Ac 2c 3c Rc Cc Fc 7c", "5d 6d Rd Cd Fd Ad", "Ab")
    state = play(new_game(APerdereRules(), 0, hands=hands, dealer=3), "4d")
    assert choice(state) == parse_card("7d")  # every denaro wins; players after it may still take the trick


def test_on_lead_it_plays_the_low_card_most_likely_to_be_beaten():
    hands = deal("4d 4c 5c 6c 7c Fc Cc Rc Ac 2c")
    state = new_game(APerdereRules(), 0, hands=hands, dealer=3)
    # The 4 di denari has nine higher denari out; the 4 di coppe only the 3 di coppe.
    assert choice(state) == parse_card("4d")


def test_it_spoils_a_cappotto_in_the_making_by_taking_a_point():
    hands = deal("3d 4c 5c 6c 7c Fc Cc Rc 2c 4b")
    state = new_game(APerdereRules(), 0, hands=hands, dealer=3)
    assert choice(state) == parse_card("4b")  # no threat: a low card
    # Player 3 has taken every point so far (20 thirds): lead the master 3 di denari to take one back.
    threatened = state._replace(public=state.public._replace(thirds=(0, 0, 0, 20)))
    assert choice(threatened) == parse_card("3d")


def test_the_dealer_discards_its_most_dangerous_cards():
    rules = APerdereRules(players=3, reduce="dealer_discard")
    hands = deal("Ad Ac 4b", players=3, sizes=(14, 13, 13))  # the dealer (seat 0) holds the extra card
    state = new_game(rules, 0, hands=hands, dealer=0)
    assert state.public.table.phase == DISCARD and state.public.turn == 0
    action = choice(state)
    assert action - GIVE in (parse_card("Ad"), parse_card("Ac"))  # an asso: three thirds


def test_with_objective_take_it_takes_with_its_cheapest_winner():
    hands = deal("4d", "3d 2d 7d Ac", "Ad", "2c")
    state = play(new_game(APerdereRules(objective="take"), 0, hands=hands, dealer=3), "4d")
    assert choice(state) == parse_card("7d")


@pytest.mark.parametrize(
    "rules, boards, margin",
    [(APerdereRules(), 60, 0.5), (APerdereRules(players=3), 60, 1.0), (APerdereRules(players=8), 60, 0.2),
     (APerdereRules(players=3, objective="take"), 60, 0.3)],
    ids=["4_players", "3_players", "8_players", "3_players_take"],
)  # fmt: skip
def test_the_heuristic_takes_fewer_points_than_a_field_of_random_players(rules, boards, margin):
    # Well below the README's 1000-board figures: a test of direction, the field's charge minus the heuristic's.
    result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=boards, seed=1, rules=rules, workers=1, progress=False)
    assert result.ci95[0] > margin, result
