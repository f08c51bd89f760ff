"""The Calabresella and a chiamare heuristics: each rule on a hand-built position, and the margin over random play.

Hand counts (``side_play.hand_strength``) are worked out in the comments: the cards' points
(asso 1; 3, 2, re, cavallo, fante 1/3) plus sure tricks (each 3; a 2 with its 3 or with two
more cards; an asso with the 3 and the 2; half a trick per card past four in a suit).
"""

import random

import pytest

from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.agents.a_chiamare_heuristic import AChiamareHeuristic, known_sides
from tressette_env.agents.calabresella_heuristic import (
    CHIAMO_AT,
    SOLISSIMO_AT,
    SOLO_AT,
    CalabresellaHeuristic,
    call_card,
)
from tressette_env.agents.side_play import hand_strength, is_master, side_card
from tressette_env.engine import apply, legal_actions, new_game, view
from tressette_env.engine.actions import CALL, CHIAMO, GIVE, PASS, SOLISSIMO, SOLO
from tressette_env.engine.cards import FULL_DECK, cards_of, parse_card, parse_cards
from tressette_env.evaluation import duplicate
from tressette_env.games import a_chiamare as ch
from tressette_env.games import calabresella as cal

RNG = random.Random(0)
STRONG_9 = "3d 2d Ad Rd 3c 2c 4c 3b 4b 5b 4s 5s"
# points: six cards of 1/3 (3d 2d Rd 3c 2c 3b) and the asso: 3; sure tricks: 3d 2d Ad, 3c 2c, 3b: 6; count 9.
STRONG_11 = "3d 2d Ad Rd 3c 2c Ac 3b 4b 5b 4s 5s"  # as STRONG_9 with Ac for 4c: +1 point, +1 sure trick
STRONG_12 = "3d 2d Ad Rd 3c 2c Ac 3b 2b 4s 5s 6s"  # 12 1/3: a 2b adds 1/3 and a sure trick
HUGE = "3d 2d Ad 3c 2c Ac 3b 2b Ab 3s 2s As"  # four suits of 3, 2, asso: 6 2/3 points and 12 sure tricks
WEAK = "4d 5d 6d 7d 4c 5c 6c 7c 4b 5b 6b 7b"  # count 0


def calabresella_deal(*hands: str, players: int = 3, size: int = 12, monte: str = "") -> dict:
    """A chosen deal from partial hands (card codes), each filled up with the lowest cards left; the monte last."""
    given = parse_cards(" ".join(h for h in hands if h) + (" " + monte if monte else ""))
    left = cards_of(FULL_DECK & ~given)
    out = []
    for k in range(players):
        h = cards_of(parse_cards(hands[k])) if k < len(hands) and hands[k] else []
        need = size - len(h)
        out.append(sorted(h + left[:need]))
        left = left[need:]
    options = {"hands": out}
    if players == 3 or monte:
        options["monte"] = cards_of(parse_cards(monte)) if monte else left[:4]
    return options


def choice(player, state) -> int:
    """The player's action for the seat on turn."""
    return player.act(view(state, state.public.turn), legal_actions(state), RNG)


def test_the_hand_count_of_the_worked_hands():
    assert hand_strength(parse_cards(STRONG_9)) == pytest.approx(9.0)
    assert hand_strength(parse_cards(STRONG_11)) == pytest.approx(11.0)
    assert hand_strength(parse_cards(STRONG_12)) == pytest.approx(12 + 1 / 3)
    assert hand_strength(parse_cards(HUGE)) == pytest.approx(12 + 6 + 2 / 3)
    assert hand_strength(parse_cards(WEAK)) == 0
    # A long suit: 3d 2d 4d 5d 6d 7d: 2/3 point, two sure tricks, one card past four (half a trick).
    assert hand_strength(parse_cards("3d 2d 4d 5d 6d 7d")) == pytest.approx(2 / 3 + 2 + 1)


@pytest.mark.parametrize(
    ("hand", "bid"),
    [(WEAK, PASS), (STRONG_9, CHIAMO), (STRONG_11, CHIAMO), (STRONG_12, SOLO), (HUGE, SOLISSIMO)],
    ids=["weak_passes", "9_chiamo", "11_chiamo", "12_solo", "20_solissimo"],
)
def test_calabresella_bids_the_highest_contract_its_count_reaches(hand, bid):
    assert (CHIAMO_AT, SOLO_AT, SOLISSIMO_AT) == (9.0, 12.0, 14.0)
    state = new_game(cal.CalabresellaRules(), 0, dealer=2, **calabresella_deal(hand))
    assert state.public.turn == 0 and state.public.table.phase == cal.AUCTION
    assert choice(CalabresellaHeuristic(), state) == bid


def test_calabresella_passes_when_its_contract_is_already_outbid():
    state = new_game(cal.CalabresellaRules(), 0, dealer=1, **calabresella_deal("", "", STRONG_9))
    state = apply(state, SOLO)  # dealer 1: seat 2 speaks first and bids solo
    # Seat 0 (the lowest cards left, a count below 9) may only bid solissimo or pass: it passes.
    assert state.public.turn == 0 and choice(CalabresellaHeuristic(), state) == PASS


def test_the_call_is_the_highest_rank_lacking_in_the_longest_suit():
    # Lacking 3s: spade (no spade at all) and none other; lacking a 2: coppe? the hand holds 2c.
    hand = parse_cards("3d 2d Ad Rd Cd 3c 2c 3b 2b 4s 5s 6s")
    options = cards_of(FULL_DECK & ~hand)
    assert call_card(hand, options) == parse_card("3s")  # the only 3 it lacks
    hand = parse_cards("3d 2d Ad Rd Cd 3c 2c 3b 2b 3s 5s 6s")
    # Every 3 held; 2s lacked only in spade; spade holds three cards, the longest suit lacking a 2.
    assert call_card(hand, cards_of(FULL_DECK & ~hand)) == parse_card("2s")
    hand = parse_cards("3d 2d Ad 3c 2c 4c 5c 6c 3b 2b 3s 2s")
    # Every 3 and 2 held; an asso lacked in coppe (5 cards), bastoni (2) and spade (2): coppe.
    assert call_card(hand, cards_of(FULL_DECK & ~hand)) == parse_card("Ac")


def test_the_card_returned_is_the_cheapest_of_the_shortest_suit_never_the_called_one():
    # Seat 0 bids chiamo, the others pass; it calls 3s, held by seat 1, and takes the monte.
    options = calabresella_deal(STRONG_9.replace("4s 5s", "4s 7b"), "3s", monte="Cd Fd 6d 7d")
    state = new_game(cal.CalabresellaRules(call_rule="any"), 0, dealer=2, **options)
    for action in (CHIAMO, PASS, PASS, CALL + parse_card("3s")):
        state = apply(state, action)
    assert state.public.table.phase == cal.RETURN and state.public.table.extra.called_from == 1
    action = choice(CalabresellaHeuristic(), state)
    # Spade (3s and 4s) is its shortest suit after the call; the 3s may not be returned: the 4s goes.
    assert action == GIVE + parse_card("4s")


def test_the_discards_keep_the_masters_and_shed_the_short_suits():
    # Solo: seat 0 takes the monte (16 cards) and discards four.
    options = calabresella_deal(STRONG_12, "", "", monte="4d 5d 6d 4c")
    state = new_game(cal.CalabresellaRules(), 0, dealer=2, **options)
    for action in (SOLO, PASS, PASS):
        state = apply(state, action)
    assert state.public.table.phase == cal.DISCARD and state.public.turn == 0
    player = CalabresellaHeuristic()
    discarded = []
    while state.public.table.phase == cal.DISCARD:
        action = choice(player, state)
        discarded.append(action - GIVE)
        state = apply(state, action)
    # Its spades (4s 5s 6s, no master: the 3s, 2s and asso are out) go first, the weakest first; no master goes.
    assert discarded[:3] == [parse_card(c) for c in ("4s", "5s", "6s")]
    assert not any(is_master(c, FULL_DECK & ~parse_cards(STRONG_12)) for c in discarded)


def test_on_lead_the_side_player_cashes_a_master_with_the_most_points():
    options = calabresella_deal("3d Ad 4c 5c 6c 7c Fc Cc Rc 4b 5b 6b", "2d", "")
    state = new_game(cal.CalabresellaRules(), 0, dealer=2, **options)
    me = view(state, 0)
    # The 3 di denari beats every denaro; the asso does not (seat 1 holds the 2 di denari): the 3 goes.
    assert side_card(me, cards_of(me.hand), frozenset({0}), frozenset({1, 2})) == parse_card("3d")
    # With the 2 di denari in its own hand the asso is a master too, and it holds the most points.
    options = calabresella_deal("3d 2d Ad 4c 5c 6c 7c Fc Cc Rc 4b 5b", "", "")
    me = view(new_game(cal.CalabresellaRules(), 0, dealer=2, **options), 0)
    assert side_card(me, cards_of(me.hand), frozenset({0}), frozenset({1, 2})) == parse_card("Ad")


def test_following_the_side_player_loads_a_safe_friends_trick_and_ducks_a_foes():
    # Four players all play, hands of ten: seat 1 leads the 3 di denari (a master), seat 2 (a friend) follows.
    rules = cal.CalabresellaRules(players=4)
    options = calabresella_deal("", "3d", "Ad 4d Ac", "", players=4, size=10)
    state = new_game(rules, 0, dealer=0, **options)
    state = state._replace(public=state.public._replace(table=state.public.table._replace(phase=0)))
    state = state._replace(public=state.public._replace(turn=1, leader=1))
    state = apply(state, parse_card("3d"))
    me = view(state, 2)
    following = [c for c in cards_of(me.hand) if c // 10 == 0]
    # Friend 1 wins with a master: load the asso (a whole point).
    assert side_card(me, following, frozenset({1, 2}), frozenset({0, 3})) == parse_card("Ad")
    # Foe 1 wins: no card beats the 3; play the cheapest (the 4, no points).
    assert side_card(me, following, frozenset({2}), frozenset({0, 1, 3})) == parse_card("4d")


def test_a_chiamare_bids_from_its_count_and_never_calls_its_own_card():
    rules = ch.AChiamareRules()
    hand = "3d 2d Ad 3c 2c 4b 5b 6b"  # points 1/3 * 4 + 1 = 2 1/3; sure tricks 3d 2d Ad 3c 2c: 5; count 7 1/3
    assert hand_strength(parse_cards(hand)) == pytest.approx(7 + 1 / 3)
    options = calabresella_deal(hand, players=5, size=8)
    state = new_game(rules, 0, dealer=4, **options)
    assert state.public.turn == 0
    assert choice(AChiamareHeuristic(), state) == CHIAMO  # from 5; sola only from 9
    state = apply(state, CHIAMO)
    while state.public.table.phase == ch.AUCTION:
        state = apply(state, PASS)
    call = choice(AChiamareHeuristic(), state) - CALL
    # Lacking a 3: bastoni (3 cards) and spade (none): the 3 di bastoni, in its longest suit.
    assert call == parse_card("3b") and not parse_cards(hand) >> call & 1


# Five hands of eight (40 cards): seat 0 calls, seat 1 holds the 3 di bastoni, seat 4 the 3 di spade.
A_CHIAMARE_HANDS = [
    "3d 2d 4d 4b Rd Cd Fd 7d",
    "3b Ad 5d 6d Ac 2c 3c 4c",
    "Ab 5b 6b 7b 5c 6c 7c Fc",
    "2b Fb Cb Rb Cc Rc 4s 5s",
    "As 2s 3s 6s 7s Fs Cs Rs",
]


def _a_chiamare_after_call(called: str):
    """A chiamare on ``A_CHIAMARE_HANDS``, seat 0 the caller of ``called``, the others passing."""
    hands = [cards_of(parse_cards(h)) for h in A_CHIAMARE_HANDS]
    state = new_game(ch.AChiamareRules(), 0, dealer=4, hands=hands)
    state = apply(state, CHIAMO)
    while state.public.table.phase == ch.AUCTION:
        state = apply(state, PASS)
    return apply(state, CALL + parse_card(called))


def test_a_chiamare_sides_as_each_seat_knows_them():
    state = _a_chiamare_after_call("3b")
    everyone = frozenset(range(5))
    # The partner (seat 1 holds the 3 di bastoni) knows: the caller is its friend, the rest foes.
    assert known_sides(view(state, 1)) == (frozenset({0, 1}), everyone - {0, 1})
    # The caller and the others do not know yet: the caller counts itself alone, an opponent the caller a foe.
    assert known_sides(view(state, 0)) == (frozenset({0}), frozenset())
    assert known_sides(view(state, 2)) == (frozenset({2}), frozenset({0}))
    # Seat 0 leads the 4 di bastoni; seat 1 must follow with its only bastone, the called card: all know.
    state = apply(apply(state, parse_card("4b")), parse_card("3b"))
    assert ch.revealed_partner(state.public) == 1
    assert known_sides(view(state, 0)) == (frozenset({0, 1}), everyone - {0, 1})
    assert known_sides(view(state, 2)) == (everyone - {0, 1}, frozenset({0, 1}))


def test_an_opponent_suspects_the_seat_that_loads_points_on_the_callers_trick():
    state = _a_chiamare_after_call("3s")
    # Seat 0 leads the 3 di denari; seat 1 loads the asso onto it (a whole point): seat 2 suspects seat 1.
    state = apply(apply(state, parse_card("3d")), parse_card("Ad"))
    assert ch.revealed_partner(state.public) == -1
    assert known_sides(view(state, 2)) == (frozenset({2}), frozenset({0, 1}))
    # The caller takes the loader for its friend.
    assert known_sides(view(state, 0))[0] == frozenset({0, 1})


@pytest.mark.parametrize(
    ("rules", "boards", "margin"),
    [
        (cal.CalabresellaRules(), 60, 1.0),
        (cal.CalabresellaRules(players=4), 60, 1.0),
        (cal.CalabresellaRules(players=4, four_player="dealer_sits_out"), 60, 0.5),
        (ch.AChiamareRules(), 60, 1.0),
    ],
    ids=["calabresella_3", "calabresella_4", "calabresella_dealer_sits_out", "a_chiamare"],
)
def test_the_heuristic_wins_more_stakes_than_a_field_of_random_players(rules, boards, margin):
    # Well below the README's 1000-board figures: a test of direction, A's mean stake minus the field's.
    result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=boards, seed=1, rules=rules, workers=1, progress=False)
    assert result.ci95[0] > margin, result
