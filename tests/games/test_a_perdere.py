"""Tressette a perdere (FAMILY.md section 3), rule by rule, with hand-built deals; invariants of random play.

The deals are written trick by trick: ``"3s As 6s Rs"`` is one trick, the cards of seat 0, 1,
2, 3 in that order (``play_tricks`` plays them from the trick's leader round). Every number
asserted is worked out by hand in the comments: card thirds are asso 3; 3, 2, re, cavallo,
fante 1; 4 to 7 nothing; the last trick 3 more.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import action, by_seat, play_tricks
from tressette_env import tressette_a_perdere_v0
from tressette_env.encoders.a_perdere import observation
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    THIRDS,
    GameOverError,
    IllegalActionError,
    apply,
    cards_of,
    legal_actions,
    new_game,
    next_hand,
    parse_card,
    parse_cards,
    renuncio,
    trick_winner,
    view,
)
from tressette_env.engine.actions import GIVE
from tressette_env.engine.switches import make_effective
from tressette_env.games.a_perdere import DISCARD, APerdereRules, make_rules

FULL = (1 << 40) - 1
ASSO_DI_BASTONI = parse_card("Ab")


def swap_suits(tricks, a, b):
    """The same deal with suits ``a`` and ``b`` (suit letters) exchanged."""
    table = str.maketrans({a: b, b: a})
    return [trick.translate(table) for trick in tricks]


# The worked example (four players, dealer 3: player 0 leads): thirds 10, 7, 2, 16, player 3
# taking the last trick. Each trick below is in one suit but the last two, where the players
# void in the led suit throw another.
WORKED = [
    "3s As 6s Rs",  # p0 leads, the 3 takes: 1 + 3 + 0 + 1 = 5 thirds to p0
    "2s 7s Fs Cs",  # p0: 1 + 0 + 1 + 1 = 3 (p0 8)
    "Rc 4c 5c Cc",  # p0: 1 + 0 + 0 + 1 = 2 (p0 10)
    "5d 3d Ad Rd",  # p0 leads, p1's 3 takes: 0 + 1 + 3 + 1 = 5 to p1
    "6d 2d 7d Cd",  # p1: 0 + 1 + 0 + 1 = 2 (p1 7)
    "6c Ac 2c 3c",  # p1 leads, p3's 3 takes: 0 + 3 + 1 + 1 = 5 to p3
    "Ab 6b Rb 3b",  # p3: 3 + 0 + 1 + 1 = 5 (p3 10; p3 takes the asso di bastoni)
    "7b Fb Cb 2b",  # p3: 0 + 1 + 1 + 1 = 3 (p3 13)
    "4d Fd Fc 7c",  # p3 leads 7c, p2's fante takes; p0, p1 have no coppe left: 0 + 1 + 1 + 0 = 2 to p2
    "4s 5s 4b 5b",  # p2 leads 4b, p3's 5b takes the last trick: 0 card thirds + 3 (p3 16)
]
# Cappotto (dealer 3): thirds 0, 2, 1, 32, the last trick to player 3.
CAPPOTTO = [
    "7d 2d 6d Fd",  # p0 leads, p1's 2 takes: 0 + 1 + 0 + 1 = 2 to p1
    "4c 5c Fc 6c",  # p1 leads, p2's fante takes: 1 to p2
    "4d 5d Cd 3d",  # p2 leads, p3's 3 takes: 0 + 0 + 1 + 1 = 2 to p3
    "Ac 2c 7c 3c",  # p3: 3 + 1 + 0 + 1 = 5 (7)
    "As 4s 5s 3s",  # p3: 3 + 0 + 0 + 1 = 4 (11)
    "Rs 6s 7s 2s",  # p3: 1 + 0 + 0 + 1 = 2 (13)
    "Ab 4b 5b 3b",  # p3: 3 + 0 + 0 + 1 = 4 (17)
    "Rb 6b 7b 2b",  # p3: 1 + 0 + 0 + 1 = 2 (19)
    "Ad Rd Cc Rc",  # p3 leads Rc; p0, p1 have no coppe: 3 + 1 + 1 + 1 = 6 (25)
    "Fs Cs Fb Cb",  # p3 leads Cb; p0, p1 have no bastoni: 1 + 1 + 1 + 1 + 3 = 7 (32)
]
# Three players (dealer 0: player 1 leads), 13 tricks; the asso di bastoni is the 40th card
# (removed, in the monte, or the dealer's discard). Player 1 leads his ten coppe, the others
# have none and throw their denari and spade: 8 + 8 + 8 = 24 thirds to p1. Then bastoni:
THREE = [f"{rank}d {rank}c {rank}s" for rank in "3 2 A R C F 7 6 5 4".split()] + [
    "4b Fb Rb",  # p1 leads Fb, p2's re takes: 0 + 1 + 1 = 2
    "5b Cb 2b",  # p2 leads 2b: 0 + 1 + 1 = 2 (4)
    "6b 7b 3b",  # p2 leads 3b: 0 + 0 + 1 + 3 (last trick) = 4 (8)
]
# Three players, the 4 di bastoni left out: player 1 (the seat after dealer 0) takes every trick.
THREE_CAPPOTTO = THREE[:10] + ["5b 3b Fb", "6b 2b Cb", "7b Ab Rb"]  # 8 + 8 + 8 + 8 + 3 = 35 thirds to p1


def charges(rules, tricks=WORKED, dealer=3, **deal):
    state = play_tricks(new_game(rules, hands=by_seat(tricks), dealer=dealer, **deal), tricks)
    assert state.public.status != PLAYING
    return state.public.result


def test_the_hand_built_deals_are_whole_decks():
    for tricks, left_out in ((WORKED, ""), (CAPPOTTO, ""), (THREE, "Ab"), (THREE_CAPPOTTO, "4b")):
        cards = [c for hand in by_seat(tricks) for c in hand]
        assert len(set(cards)) == len(cards) and FULL & ~sum(1 << c for c in cards) == parse_cards(left_out)


# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize(
    "players, size, removed",
    [(3, 13, "4b"), (4, 10, ""), (5, 8, ""), (6, 6, "4d 4c 4s 4b"), (7, 5, "4d 4c 4s 4b 5b"), (8, 5, "")],
)
def test_the_cards_are_shared_out_evenly_and_the_low_cards_left_over_removed_and_announced(players, size, removed):
    rules = APerdereRules(players=players)
    for seed in range(5):
        state = new_game(rules, seed)
        p = state.public
        assert [h.bit_count() for h in state.hands] == [size] * players
        dealt = 0
        for h in state.hands:
            assert not dealt & h
            dealt |= h
        assert p.table.extra.removed == parse_cards(removed) == FULL & ~dealt
        assert p.table.tricks == size and p.table.extra.set_aside == 0 and state.hidden.set_aside == ()
        # Announced: in every player's observation, and in the infos when the hand ends.
        obs = observation(rules)
        for seat in range(players):
            assert obs.unflatten(obs.encode(view(state, seat)))["removed"].tolist() == [
                int(parse_cards(removed) >> c & 1) for c in range(40)
            ]
        while state.public.status == PLAYING:
            state = apply(state, legal_actions(state)[0])
        assert rules.game.hand_info(state.public)["removed"] == cards_of(parse_cards(removed))


def test_the_removed_cards_follow_from_chosen_hands():
    state = new_game(APerdereRules(players=3), hands=by_seat(THREE), dealer=0)
    assert state.public.table.extra.removed == parse_cards("Ab")  # the card no hand holds
    seven = [list(range(5 + 5 * s, 10 + 5 * s)) for s in range(7)]  # cards 5..39: 0..4 (Ad 2d 3d 4d 5d) are left
    state = new_game(APerdereRules(players=7), hands=seven, dealer=0)
    assert state.public.table.extra.removed == parse_cards("Ad 2d 3d 4d 5d")
    assert new_game(APerdereRules(), hands=by_seat(WORKED), dealer=3).public.table.extra.removed == 0


@pytest.mark.parametrize("players", [4, 5, 8])
def test_reduce_is_refused_when_the_deck_divides_evenly(players):
    for seed in range(3):
        s = new_game(APerdereRules(players=players), seed)
        extra = s.public.table.extra
        assert extra.removed == 0 and extra.set_aside == 0 and s.public.table.phase == 0
        assert s.public.turn == (s.public.dealer + 1) % players
    for r in ("dealer_discard", "monte"):  # no card left over: it would change nothing
        with pytest.raises(ValueError, match=f"reduce='{r}' has no effect with players={players}"):
            APerdereRules(players=players, reduce=r)


# ------------------------------------------------------------------ the dealer's discards


@pytest.mark.parametrize("players, size, extra", [(3, 13, 1), (6, 6, 4), (7, 5, 5)])
def test_the_dealer_is_dealt_the_extra_cards_and_discards_as_many_face_down_before_the_first_lead(players, size, extra):
    rules = APerdereRules(players=players, reduce="dealer_discard")
    state = new_game(rules, seed=players, dealer=1)
    p = state.public
    assert [h.bit_count() for h in state.hands] == [size + extra if s == 1 else size for s in range(players)]
    assert p.table.phase == DISCARD and p.turn == 1 and p.first_leader == 2 and p.table.extra.removed == 0
    assert p.table.extra.set_aside == extra  # public: how many cards go face down
    discarded = []
    for k in range(extra):
        held = cards_of(state.hands[1])
        assert legal_actions(state) == [GIVE + c for c in held]  # nothing but a discard of a card he holds
        with pytest.raises(IllegalActionError, match="the dealer discards a card of his hand"):
            apply(state, held[0])  # no card play before the discards
        with pytest.raises(IllegalActionError, match="the dealer discards a card of his hand"):
            apply(state, GIVE + cards_of(state.hands[0])[0])  # a card he does not hold
        discarded.append(held[-1])
        state = apply(state, GIVE + held[-1])
        assert state.public.history == ()  # face down: out of the public record
        if k < extra - 1:
            assert state.public.table.phase == DISCARD and state.public.turn == 1
    p = state.public
    assert p.table.phase == 0 and p.turn == p.leader == 2  # the seat after the dealer leads
    assert [h.bit_count() for h in state.hands] == [size] * players
    assert state.hidden.set_aside == tuple(discarded)
    assert sum(state.hands) | sum(1 << c for c in discarded) == FULL


def test_the_discards_stay_out_of_every_other_seat_s_view():
    hands = by_seat(THREE)
    hands[0].append(ASSO_DI_BASTONI)  # the dealer holds 14
    rules = APerdereRules(players=3, reduce="dealer_discard")
    dealt = new_game(rules, hands=hands, dealer=0)
    one = apply(dealt, GIVE + ASSO_DI_BASTONI)
    other = apply(dealt, GIVE + parse_card("4b"))
    assert one.hidden.set_aside == (ASSO_DI_BASTONI,) and other.hidden.set_aside == (parse_card("4b"),)
    assert one.public == other.public and one.public.history == ()  # the public record cannot tell them apart
    obs = observation(rules)
    for seat in (1, 2):
        assert view(one, seat) == view(other, seat)
        assert obs.encode(view(one, seat)).tolist() == obs.encode(view(other, seat)).tolist()
    assert apply(one, parse_card("3c")).public.history == (parse_card("3c"),)
    # The dealer alone knows what he discarded: his view and his observation tell the two apart.
    assert view(one, 0).private == 1 << ASSO_DI_BASTONI and view(other, 0).private == 1 << parse_card("4b")
    known = obs.slices["face_down_known"]
    assert obs.encode(view(one, 0))[known].tolist() == [int(c == ASSO_DI_BASTONI) for c in range(40)]
    assert ASSO_DI_BASTONI not in cards_of(view(one, 0).unseen)  # not a card another seat may hold
    monte = new_game(APerdereRules(players=3, reduce="monte"), hands=by_seat(THREE), dealer=0)
    assert [view(monte, seat).private for seat in range(3)] == [0, 0, 0]  # the monte: nobody knows it


@pytest.mark.parametrize("reduce", ["dealer_discard", "monte"])
def test_the_discards_or_the_monte_go_to_the_last_trick_s_winner(reduce):
    hands = by_seat(THREE)
    if reduce == "dealer_discard":
        hands[0].append(ASSO_DI_BASTONI)
        deal = {}
    else:
        deal = {"monte": [ASSO_DI_BASTONI]}
    for last_trick in ("remainder", "plus_one"):
        rules = APerdereRules(players=3, reduce=reduce, last_trick=last_trick)
        state = new_game(rules, hands=hands, dealer=0, **deal)
        if reduce == "dealer_discard":
            state = apply(state, GIVE + ASSO_DI_BASTONI)
        else:
            assert state.hidden.set_aside == (ASSO_DI_BASTONI,) and state.public.table.extra.set_aside == 1
            assert not any(h >> ASSO_DI_BASTONI & 1 for h in state.hands) and state.public.table.extra.removed == 0
        state = play_tricks(state, THREE)
        p = state.public
        # The tricks gave 0, 24, 8 thirds; the asso's 3 go to player 2, who took the last trick: 11.
        assert p.thirds == (0, 24, 8) and p.result.card_thirds == (0, 24, 11)
        # remainder: p1 24 // 3 = 8, p2 11 - 8 = 3; plus_one: 11 // 3 = 3 (without the asso, 8 // 3 = 2).
        assert p.result.points == (0, 8, 3)


def test_the_monte_follows_from_chosen_hands_and_a_chosen_monte_alone_is_kept():
    state = new_game(APerdereRules(players=3, reduce="monte"), hands=by_seat(THREE), dealer=0)
    assert state.hidden.set_aside == (ASSO_DI_BASTONI,) and state.public.table.extra.removed == 0
    monte = cards_of(parse_cards("Ad 2d 3d Ac 2c"))
    for seed in range(5):
        state = new_game(APerdereRules(players=7, reduce="monte"), seed, monte=monte)
        assert state.hidden.set_aside == tuple(monte) and state.public.table.extra.set_aside == 5
        assert [h.bit_count() for h in state.hands] == [5] * 7
        assert sum(state.hands) == FULL & ~parse_cards("Ad 2d 3d Ac 2c")


@pytest.mark.parametrize("players, size", [(3, 1), (6, 4), (7, 5)])
def test_the_monte_holds_the_cards_left_over_face_down(players, size):
    rules = APerdereRules(players=players, reduce="monte")
    for seed in range(3):
        state = new_game(rules, seed)
        monte = state.hidden.set_aside
        assert len(monte) == size and state.public.table.extra.set_aside == size
        assert state.public.table.extra.removed == 0 and sum(state.hands) | sum(1 << c for c in monte) == FULL
        for seat in range(players):  # nobody sees the monte
            assert not view(state, seat).hand & sum(1 << c for c in monte)


# ------------------------------------------------------------------ the charges


def test_the_worked_example_the_last_trick_s_winner_is_charged_the_remainder():
    result = charges(APerdereRules())
    assert result.card_thirds == (10, 7, 2, 16) and result.cappotto is None
    assert result.points == (3, 2, 0, 6)  # 10 // 3, 7 // 3, 2 // 3, and 11 - 5 = 6 for player 3
    # plus_one: each rounded down separately, 16 // 3 = 5; the hand is then worth 10.
    assert charges(APerdereRules(last_trick="plus_one")).points == (3, 2, 0, 5)


def test_the_worked_example_cappotto_charges_every_other_player_the_hand_s_total():
    result = charges(APerdereRules(), CAPPOTTO)
    assert result.card_thirds == (0, 2, 1, 32)  # the others hold 0 whole points
    assert result.points == (11, 11, 11, 0) and result.cappotto == 3
    assert charges(APerdereRules(last_trick="plus_one"), CAPPOTTO).points == (11, 11, 11, 0)
    # No special rule: the remainder, 11 - 0 = 11, to player 3 (32 // 3 = 10 with plus_one).
    plain = charges(APerdereRules(cappotto="none"), CAPPOTTO)
    assert plain.points == (0, 0, 0, 11) and plain.cappotto is None
    assert charges(APerdereRules(cappotto="none", last_trick="plus_one"), CAPPOTTO).points == (0, 0, 0, 10)
    assert charges(APerdereRules(players=3), THREE_CAPPOTTO, dealer=0).points == (11, 0, 11)


def test_cappotto_wins_match_ends_the_match_at_once_for_its_maker():
    rules = APerdereRules(cappotto="wins_match", episode="match", target_score=21)
    state = play_tricks(new_game(rules, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO)
    p = state.public
    # Nobody is at 21 (11, 11, 11, 0), but the match is over: player 3 wins, the others tie for ranks 1-3.
    assert p.status == GAME_OVER and p.winner == 3 and p.match_score == (11, 11, 11, 0)
    assert p.result.points == (11, 11, 11, 0)
    assert rules.game.returns(p) == pytest.approx((-1 / 3, -1 / 3, -1 / 3, 1))  # 1 - 2 * 2 / 3 for the mean rank 2
    plain = APerdereRules(episode="match", target_score=21)
    p = play_tricks(new_game(plain, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO).public
    assert p.status == HAND_OVER and p.winner is None  # others_charged: the match goes on
    # A single hand takes it: it charges as "others_charged", but the hand's result names the cappotto.
    assert APerdereRules(cappotto="wins_match", objective="take").cappotto == "wins_match"


def test_cappotto_wins_match_in_an_elimination_match_goes_to_its_maker():
    rules = APerdereRules(cappotto="wins_match", episode="match", match_end="elimination", target_score=11)
    state = renuncio(new_game(rules, seed=0, dealer=3))  # player 0 (on lead) renounces: 11, out
    assert state.public.status == HAND_OVER and state.public.table.extra.out == (0,)
    # Players 1, 2, 3 at seats 0, 1, 2; player 1 deals, player 2 (seat 1) makes cappotto.
    state = next_hand(state, hands=by_seat(THREE_CAPPOTTO))
    assert state.public.table.controllers == (1, 2, 3) and state.public.dealer == 0
    p = play_tricks(state, THREE_CAPPOTTO).public
    assert p.result.points == (11, 0, 11) and p.match_score == (11, 11, 0, 11)
    assert p.status == GAME_OVER and p.winner == 2  # not player 0, who is out with no charge this hand
    # Player 2 first; players 1 and 3 share ranks 1 and 2 (1 - 2 * 1.5 / 3 = 0); player 0, out, last.
    assert rules.game.returns(p) == pytest.approx((-1, 0, 1, 0))


@pytest.mark.parametrize(
    "value, total, worked, swapped",
    [
        # Player 3 takes the asso: 16 + 3 * 10 = 46 thirds; charged 21 - 5 = 16.
        (11, 21, ((10, 7, 2, 46), (3, 2, 0, 16)), ((10, 37, 2, 16), (3, 12, 0, 6))),
        # 16 + 3 * 17 = 67; 28 - 5 = 23. Swapped: player 1 takes it, 7 + 51 = 58 -> 19; player 3 28 - 22 = 6.
        (18, 28, ((10, 7, 2, 67), (3, 2, 0, 23)), ((10, 58, 2, 16), (3, 19, 0, 6))),
    ],
)
def test_the_special_asso_di_bastoni_charges_its_taker_and_raises_the_hand_s_total(value, total, worked, swapped):
    rules = APerdereRules(asso_bastoni_value=value)
    assert rules.total == total
    result = charges(rules)
    assert (result.card_thirds, result.points) == worked and sum(result.points) == total
    # The same deal with denari and bastoni exchanged: player 1 takes the asso di bastoni (7 + 30 = 37
    # thirds, 12 points), player 3 still the last trick; charges 3, 12, 0 and 21 - 15 = 6.
    result = charges(rules, swap_suits(WORKED, "d", "b"))
    assert (result.card_thirds, result.points) == swapped and sum(result.points) == total
    # plus_one: player 3's 46 thirds are 15 points, 67 are 22.
    assert charges(APerdereRules(asso_bastoni_value=value, last_trick="plus_one")).points[3] == {11: 15, 18: 22}[value]
    # Cappotto charges the others the hand's total.
    assert charges(rules, CAPPOTTO).points == (total, total, total, 0)


@pytest.mark.parametrize("reduce", ["dealer_discard", "monte"])
@pytest.mark.parametrize("value, thirds, points", [(11, (0, 24, 41), (0, 8, 13)), (18, (0, 24, 62), (0, 8, 20))])
def test_the_asso_di_bastoni_face_down_counts_for_the_last_trick_s_winner(reduce, value, thirds, points):
    # THREE: player 2 takes the last trick, 8 thirds, and the face-down asso: 8 + 3 + 3 * (v - 1).
    hands = by_seat(THREE)
    deal = {"monte": [ASSO_DI_BASTONI]} if reduce == "monte" else {}
    if reduce == "dealer_discard":
        hands[0].append(ASSO_DI_BASTONI)
    for last_trick in ("remainder", "plus_one"):  # 41 // 3 = 13 = 21 - 8; 62 // 3 = 20 = 28 - 8
        state = new_game(APerdereRules(players=3, reduce=reduce, asso_bastoni_value=value, last_trick=last_trick),
                         hands=hands, dealer=0, **deal)  # fmt: skip
        if reduce == "dealer_discard":
            state = apply(state, GIVE + ASSO_DI_BASTONI)
        result = play_tricks(state, THREE).public.result
        assert (result.card_thirds, result.points) == (thirds, points)


def test_zero_point_charge_charges_each_player_with_no_point():
    assert charges(APerdereRules(zero_point_charge=10)).points == (3, 2, 10, 6)  # player 2 had 0
    assert charges(APerdereRules(zero_point_charge=0)).points == (3, 2, 0, 6)
    assert charges(APerdereRules(players=3, zero_point_charge=10), THREE, dealer=0).points == (10, 8, 3)
    # Not in a hand with cappotto; with cappotto="none" the three players with 0 points pay it.
    assert charges(APerdereRules(zero_point_charge=10), CAPPOTTO).points == (11, 11, 11, 0)
    assert charges(APerdereRules(zero_point_charge=10, cappotto="none"), CAPPOTTO).points == (10, 10, 10, 11)
    with pytest.raises(ValueError, match="zero_point_charge=10 has no effect with objective='take'"):
        APerdereRules(zero_point_charge=10, objective="take")


def test_objective_take_counts_the_points_won_without_the_cappotto_inversion():
    rules = APerdereRules(objective="take")
    p = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED).public
    assert p.result.points == (3, 2, 0, 6) and rules.game.returns(p) == (3.0, 2.0, 0.0, 6.0)
    result = charges(rules, CAPPOTTO)
    assert result.points == (0, 0, 0, 11) and result.cappotto is None
    # wins_match still ends a match for the player who took every point.
    match = APerdereRules(objective="take", cappotto="wins_match", episode="match")
    p = play_tricks(new_game(match, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO).public
    assert p.result.cappotto == 3 and p.status == GAME_OVER and p.winner == 3
    # A match to 6 points: player 3 reaches it and has the most.
    p = play_tricks(new_game(APerdereRules(objective="take", episode="match", target_score=6),
                             hands=by_seat(WORKED), dealer=3), WORKED).public  # fmt: skip
    assert p.status == GAME_OVER and p.winner == 3
    assert p.rules.game.returns(p) == pytest.approx((1 / 3, -1 / 3, -1, 1))  # ranks 1, 2, 3, 0


# ------------------------------------------------------------------ the match


def test_a_match_ends_when_someone_reaches_the_target_and_the_lowest_total_wins():
    rules = APerdereRules(episode="match", target_score=6)
    p = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED).public
    assert p.status == GAME_OVER and p.match_score == (3, 2, 0, 6) and p.winner == 2
    assert rules.game.returns(p) == pytest.approx((-1 / 3, 1 / 3, 1, -1))  # ranks 2, 1, 0, 3: 1 - 2 * rank / 3
    rules = APerdereRules(episode="match", target_score=7)
    state = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED)
    assert state.public.status == HAND_OVER and state.public.winner is None
    state = next_hand(state, seed=0)
    p = state.public
    assert p.dealer == 0 and p.turn == 1 and p.match_score == (3, 2, 0, 6) and p.hand_number == 1
    with pytest.raises(TypeError, match="dealer follows from the last hand"):
        next_hand(play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED), dealer=1)


@pytest.mark.parametrize("switches", [{"target_score": 11}, {"match_end": "hands", "hands": 1}])
def test_a_tie_for_the_lowest_total_plays_on(switches):
    rules = APerdereRules(episode="match", **switches)
    state = renuncio(new_game(rules, seed=0, dealer=3))  # player 0 renounces: 11, 0, 0, 0
    assert state.public.match_score == (11, 0, 0, 0) and state.public.status == HAND_OVER
    state = renuncio(next_hand(state, seed=1))  # player 1 (after dealer 0): 11, 11, 0, 0
    assert state.public.status == HAND_OVER
    p = renuncio(next_hand(state, seed=2)).public  # player 2 (after dealer 1): 11, 11, 11, 0
    assert p.status == GAME_OVER and p.winner == 3 and p.match_score == (11, 11, 11, 0)
    assert rules.game.returns(p) == pytest.approx((-1 / 3, -1 / 3, -1 / 3, 1))  # three tied for ranks 1-3


def test_a_match_of_a_fixed_number_of_hands_has_no_target():
    with pytest.raises(ValueError, match="target_score=5 has no effect with match_end='hands'"):
        APerdereRules(episode="match", match_end="hands", hands=2, target_score=5)
    rules = APerdereRules(episode="match", match_end="hands", hands=2)
    state = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED)
    assert state.public.match_score == (3, 2, 0, 6) and state.public.status == HAND_OVER  # one hand of two
    p = renuncio(next_hand(state, seed=0)).public  # dealer 0: player 1 renounces, 13
    assert p.status == GAME_OVER and p.match_score == (3, 13, 0, 6) and p.winner == 2
    assert rules.game.returns(p) == pytest.approx((1 / 3, -1, 1, -1 / 3))  # ranks 1, 3, 0, 2


def test_elimination_the_players_at_the_target_drop_out_the_rest_share_the_whole_deck():
    rules = APerdereRules(episode="match", match_end="elimination", target_score=6)
    state = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED)  # 3, 2, 0, 6
    p = state.public
    assert p.status == HAND_OVER and p.table.extra.out == (3,) and p.winner is None
    state = next_hand(state, seed=0)
    p = state.public
    t = p.table
    # Three players: 13 each, the 4 di bastoni removed; the deal passes from player 3 to player 0.
    assert t.controllers == (0, 1, 2) and t.seat_of == (0, 1, 2, -1) and t.extra.live == (0, 1, 2)
    assert [h.bit_count() for h in state.hands] == [13] * 3 and t.extra.removed == parse_cards("4b")
    assert p.dealer == 0 and p.turn == 1
    state = renuncio(state)  # player 1 renounces: 2 + 11 = 13, out
    assert state.public.status == HAND_OVER and state.public.table.extra.out == (3, 1)
    state = next_hand(state, seed=1)
    p = state.public
    t = p.table
    # Two players, 20 cards each; player 2 (seat 1) deals, player 0 (seat 0) leads.
    assert t.controllers == (0, 2) and t.seat_of == (0, -1, 1, -1) and t.tricks == 20
    assert [h.bit_count() for h in state.hands] == [20, 20] and t.extra.removed == 0
    assert p.dealer == 1 and p.turn == 0
    p = renuncio(state).public  # player 0: 3 + 11 = 14, out; player 2 is the last one left
    assert p.status == GAME_OVER and p.winner == 2 and p.table.extra.out == (3, 1, 0)
    assert p.match_score == (14, 13, 0, 6)
    assert rules.game.returns(p) == pytest.approx((1 / 3, -1 / 3, 1, -1))  # the first out ranks last
    assert rules.game.hand_info(p)["out"] == ["player_3", "player_1", "player_0"]


def test_elimination_when_every_player_still_in_reaches_the_target_the_lowest_wins_and_a_tie_plays_on():
    rules = APerdereRules(episode="match", match_end="elimination", target_score=2, zero_point_charge=10)
    p = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED).public  # 3, 2, 10, 6: all >= 2
    assert p.status == GAME_OVER and p.winner == 1 and p.table.extra.out == ()
    assert rules.game.returns(p) == pytest.approx((1 / 3, 1, -1, -1 / 3))  # ranks 1, 0, 3, 2
    # Every player charged 11 (the three with 0 points pay zero_point_charge=11): a tie, the match goes on.
    rules = APerdereRules(episode="match", match_end="elimination", target_score=11, zero_point_charge=11,
                          cappotto="none")  # fmt: skip
    state = play_tricks(new_game(rules, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO)
    assert state.public.match_score == (11, 11, 11, 11) and state.public.status == HAND_OVER
    assert state.public.table.extra.out == () and next_hand(state, seed=0).public.table.controllers == (0, 1, 2, 3)


def test_elimination_the_lowest_of_those_put_out_together_ranks_best():
    rules = APerdereRules(episode="match", match_end="elimination", target_score=3)
    state = play_tricks(new_game(rules, hands=by_seat(WORKED), dealer=3), WORKED)  # 3, 2, 0, 6
    assert state.public.status == HAND_OVER and state.public.table.extra.out == (3, 0)  # the higher total first
    state = next_hand(state, seed=0)  # players 1 and 2; the deal passes from player 3 to player 1
    assert state.public.table.controllers == (1, 2) and state.public.dealer == 0 and state.public.turn == 1
    p = renuncio(state).public  # player 2 renounces: 11, out; player 1 is the last one left
    assert p.status == GAME_OVER and p.winner == 1 and p.table.extra.out == (3, 0, 2)
    assert p.match_score == (3, 2, 11, 6)
    # Ranks: player 1 0, player 2 (the last out) 1, player 0 2, player 3 3.
    assert rules.game.returns(p) == pytest.approx((-1 / 3, 1, 1 / 3, -1))


def test_elimination_players_put_out_together_with_the_same_total_share_their_rank():
    rules = APerdereRules(episode="match", match_end="elimination", target_score=11)
    p = play_tricks(new_game(rules, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO).public  # 11, 11, 11, 0
    assert p.status == GAME_OVER and p.winner == 3 and set(p.table.extra.out) == {0, 1, 2}
    assert rules.game.returns(p) == pytest.approx((-1 / 3, -1 / 3, -1 / 3, 1))  # ranks 1-3 shared


def test_a_later_hand_s_chosen_deal_is_for_the_players_still_in_and_their_dealer():
    rules = APerdereRules(players=3, reduce="dealer_discard", episode="match", target_score=100)
    hands = by_seat(THREE)
    first = [list(h) for h in hands]
    first[0].append(ASSO_DI_BASTONI)
    state = play_tricks(apply(new_game(rules, hands=first, dealer=0), GIVE + ASSO_DI_BASTONI), THREE)
    assert state.public.match_score == (0, 8, 3)
    # Player 1 deals the next hand: he holds the 14 cards.
    second = [hands[1], hands[2] + [ASSO_DI_BASTONI], hands[0]]
    with pytest.raises(ValueError, match="hand 1 of the deal has 13 cards; it needs exactly 14"):
        next_hand(state, hands=[hands[0], hands[1], hands[2] + [ASSO_DI_BASTONI]])
    state = next_hand(state, hands=second)
    assert state.public.dealer == 1 and state.hands[1].bit_count() == 14 and state.public.table.phase == DISCARD


# ------------------------------------------------------------------ partnerships, the first lead, renuncio


def test_teams_two_partnerships_opposite_charged_as_teams_with_signals():
    rules = APerdereRules(teams=True)
    state = new_game(rules, hands=by_seat(WORKED), dealer=3)
    assert state.public.table.sides == (0, 1, 0, 1) and state.public.table.signal_seats == 0b1111
    assert action("3s busso") in legal_actions(state)  # player 0 keeps 2s 4s
    assert action("3s busso") not in legal_actions(new_game(APerdereRules(), hands=by_seat(WORKED), dealer=3))
    p = play_tricks(state, WORKED).public
    # Team 0 (players 0, 2) 10 + 2 = 12 thirds: 4; team 1 (1, 3) 7 + 16 = 23, the last trick: 11 - 4 = 7.
    assert p.result.card_thirds == (12, 23) and p.result.points == (4, 7)
    assert rules.game.returns(p) == (-4.0, -7.0, -4.0, -7.0)
    # Cappotto: team 0 holds 0 + 1 = 1 third; the first team to the target (11) loses.
    match = APerdereRules(teams=True, episode="match", target_score=11)
    p = play_tricks(new_game(match, hands=by_seat(CAPPOTTO), dealer=3), CAPPOTTO).public
    assert p.result.points == (11, 0) and p.result.cappotto == 1 and p.match_score == (11, 0)
    assert p.status == GAME_OVER and p.winner == 1 and match.game.returns(p) == (-1.0, 1.0, -1.0, 1.0)


def test_first_lead_the_seat_after_the_dealer_or_in_the_first_hand_the_4_di_denari():
    for dealer in range(5):
        assert new_game(APerdereRules(players=5), seed=dealer, dealer=dealer).public.turn == (dealer + 1) % 5
    rules = APerdereRules(first_lead="four_of_denari", episode="match", target_score=100)
    state = new_game(rules, hands=by_seat(WORKED), dealer=0)  # player 0 holds the 4 di denari
    assert state.public.turn == state.public.first_leader == 0
    state = play_tricks(state, WORKED)
    state = next_hand(state, hands=by_seat(WORKED))  # the next hand: the seat after dealer 1
    assert state.public.dealer == 1 and state.public.turn == 2
    # The 4 di denari removed (six players) or in the monte: the seat after the dealer.
    six = APerdereRules(players=6, first_lead="four_of_denari")
    assert all(new_game(six, seed, dealer=2).public.turn == 3 for seed in range(3))
    monte = APerdereRules(players=3, reduce="monte", first_lead="four_of_denari")
    assert new_game(monte, seed=0, dealer=1, monte=[parse_card("4d")]).public.turn == 2


@pytest.mark.parametrize(
    "switches, rewards",
    [
        ({}, (0.0, -11.0, 0.0, 0.0)),
        ({"asso_bastoni_value": 18}, (0.0, -28.0, 0.0, 0.0)),
        ({"objective": "take"}, (11.0, 0.0, 11.0, 11.0)),
        ({"teams": True}, (0.0, -11.0, 0.0, -11.0)),
    ],
)
def test_a_renuncio_charges_the_offender_the_hand_s_total(switches, rewards):
    env = tressette_a_perdere_v0.env(**switches)
    env.reset(options={"hands": by_seat(WORKED), "dealer": 3})
    env.step(parse_card("3s"))  # player 0 leads spade
    with pytest.warns(tressette_a_perdere_v0.RenuncioWarning, match="renuncio: player_1"):
        env.step(parse_card("3d"))  # player 1 holds As 7s 5s
    assert all(env.terminations.values())
    assert tuple(env.rewards[f"player_{a}"] for a in range(4)) == rewards
    assert env.infos["player_0"]["renuncio"]["agent"] == "player_1"


def test_a_renuncio_in_the_discards_charges_the_dealer():
    env = tressette_a_perdere_v0.env(players=3, reduce="dealer_discard")
    hands = by_seat(THREE)
    hands[0].append(ASSO_DI_BASTONI)
    env.reset(options={"hands": hands, "dealer": 0})
    assert env.agent_selection == "player_0"
    with pytest.warns(tressette_a_perdere_v0.RenuncioWarning):
        env.step(ASSO_DI_BASTONI)  # a card play before the discard
    assert env.rewards == {"player_0": -11.0, "player_1": 0.0, "player_2": 0.0}


def test_illegal_action_raise_refuses_it_and_changes_nothing():
    env = tressette_a_perdere_v0.raw_env(illegal_action="raise")
    env.reset(options={"hands": by_seat(WORKED), "dealer": 3})
    env.step(parse_card("3s"))
    game = env.game
    with pytest.raises(IllegalActionError, match="player_1 took illegal action"):
        env.step(parse_card("3d"))
    assert env.game is game and env.agent_selection == "player_1" and not any(env.terminations.values())
    env.step(parse_card("As"))
    assert env.game.public.trick == (parse_card("3s"), parse_card("As"))


# ------------------------------------------------------------------ the environment


@pytest.mark.parametrize(
    "tricks, rewards",
    [(WORKED, (-3.0, -2.0, 0.0, -6.0)), (CAPPOTTO, (-11.0, -11.0, -11.0, 0.0))],
)
def test_the_environment_plays_a_chosen_deal_to_the_charges(tricks, rewards):
    actions = play_tricks(new_game(APerdereRules(), hands=by_seat(tricks), dealer=3), tricks).public.history
    env = tressette_a_perdere_v0.env()
    env.reset(options={"hands": by_seat(tricks), "dealer": 3})
    assert env.agent_selection == "player_0"
    for a in actions:
        env.step(a)
    assert tuple(env.rewards[f"player_{a}"] for a in range(4)) == rewards
    assert env.infos["player_2"]["charges"] == [-r for r in rewards] and env.infos["player_2"]["removed"] == []


def test_the_environment_takes_the_dealer_s_discards_and_a_monte():
    hands = by_seat(THREE)
    env = tressette_a_perdere_v0.raw_env(players=3, reduce="dealer_discard")
    env.reset(options={"hands": [hands[0] + [ASSO_DI_BASTONI], hands[1], hands[2]], "dealer": 0})
    mask = env.observe("player_0")["action_mask"]
    assert mask.nonzero()[0].tolist() == [GIVE + c for c in sorted(hands[0] + [ASSO_DI_BASTONI])]
    env.step(GIVE + ASSO_DI_BASTONI)
    assert env.agent_selection == "player_1"
    obs = observation(env.rules)
    for agent in env.agents:
        assert obs.unflatten(env.observe(agent)["observation"])["set_aside"].tolist() == [1, 0, 0, 0, 0]
    env = tressette_a_perdere_v0.raw_env(players=3, reduce="monte")
    env.reset(options={"hands": hands, "monte": [ASSO_DI_BASTONI], "dealer": 0})
    assert env.game.hidden.set_aside == (ASSO_DI_BASTONI,) and env.agent_selection == "player_1"


@pytest.mark.parametrize(
    "switches, options, message",
    [
        ({}, {"hands": by_seat(WORKED)[:3] + [by_seat(WORKED)[3][:9]], "dealer": 0}, "hand 3 of the deal has 9 cards"),
        ({}, {"hands": by_seat(WORKED)[:3], "dealer": 0}, "a deal's hands are 4 lists of 10"),
        ({}, {"hands": [by_seat(WORKED)[0]] * 4}, "card 22 is dealt in hand 0 and in hand 1"),
        ({}, {"hands": by_seat(WORKED), "dealer": 4}, r"dealer must be a seat 0\.\.3"),
        ({}, {"hands": by_seat(WORKED), "monte": []}, 'a monte is for reduce="monte".*here 0 are left'),
        ({"players": 3}, {"monte": [ASSO_DI_BASTONI]}, 'a monte is for reduce="monte"'),
        ({"players": 3, "reduce": "monte"}, {"monte": [30, 31]}, "monte 0 of the deal has 2 cards; it needs exactly 1"),
        ({"players": 3, "reduce": "monte"}, {"hands": by_seat(THREE), "monte": [0]}, "card 0 is dealt in hand 0 and in monte 0"),
        ({"players": 3, "reduce": "dealer_discard"}, {"hands": by_seat(THREE)}, "a chosen deal names its dealer"),
        ({"players": 3, "reduce": "dealer_discard"}, {"hands": by_seat(THREE), "dealer": 0}, "hand 0 of the deal has 13 cards; it needs exactly 14"),
        ({}, {"hand": by_seat(WORKED)}, r"unknown reset option\(s\) \['hand'\]"),
    ],
)  # fmt: skip
def test_a_bad_chosen_deal_is_refused_and_changes_nothing(switches, options, message):
    env = tressette_a_perdere_v0.raw_env(**switches)
    env.reset(seed=0)
    game = env.game
    with pytest.raises(ValueError, match=message):
        env.reset(seed=1, options=options)
    assert env.game is game


def test_bad_rule_switches_are_named():
    for switches, message in (
        ({"players": 9}, "players=9: must be an int 3..8"),
        ({"players": 2}, "players=2: must be an int 3..8"),
        ({"teams": True, "players": 3}, "teams=True needs players=4"),
        ({"teams": True, "episode": "match", "match_end": "elimination"}, "a partnership match ends at the target"),
        ({"zero_point_charge": -1}, "zero_point_charge=-1: must be an int 0..10000"),
        ({"last_trick": "plus"}, "last_trick='plus': must be one of 'remainder', 'plus_one'"),
        ({"cappotto": "bonus"}, "cappotto='bonus': must be one of"),
        ({"match_end": "never"}, "match_end='never': must be one of"),
        ({"hands": 0}, "hands=0: must be an int 1..10000"),
        ({"objective": "take", "match_end": "elimination"}, 'match_end="elimination" needs objective="avoid"'),
    ):
        with pytest.raises(ValueError, match=message):
            make_rules(**switches)
    with pytest.raises(TypeError, match="unknown rule switch 'player'"):
        make_rules(player=4)
    with pytest.raises(TypeError, match=r"unknown deal option\(s\) \['stock'\]"):
        new_game(APerdereRules(), seed=0, stock=[])


# ------------------------------------------------------------------ invariants of random play


def individual(**switches):
    """``APerdereRules(**switches)``; an elimination match avoids points (``objective="take"`` would be refused).

    A switch with no effect under the others is left at its default.
    """
    if switches["match_end"] == "elimination":
        switches["objective"] = "avoid"
    return make_effective(APerdereRules, **switches)


RULES = st.one_of(
    st.builds(
        individual,
        players=st.integers(3, 8),
        reduce=st.sampled_from(["remove", "dealer_discard", "monte"]),
        last_trick=st.sampled_from(["remainder", "plus_one"]),
        cappotto=st.sampled_from(["others_charged", "wins_match", "none"]),
        asso_bastoni_value=st.sampled_from([1, 11, 18]),
        zero_point_charge=st.sampled_from([None, None, 0, 10]),
        match_end=st.sampled_from(["target", "elimination", "hands"]),
        target_score=st.sampled_from([11, 21]),
        objective=st.sampled_from(["avoid", "avoid", "take"]),
        first_lead=st.sampled_from(["dealer_right", "four_of_denari"]),
        episode=st.sampled_from(["hand", "match"]),
    ),
    st.builds(
        lambda **switches: make_effective(APerdereRules, **switches),
        teams=st.just(True),
        last_trick=st.sampled_from(["remainder", "plus_one"]),
        asso_bastoni_value=st.sampled_from([1, 11, 18]),
        episode=st.sampled_from(["hand", "match"]),
        target_score=st.sampled_from([11, 21]),
    ),
)


def check_hand(rules, state):
    """A finished hand: every card once, the thirds, the charges (see FAMILY.md section 3)."""
    p = state.public
    r = p.result
    extra = p.table.extra
    n = p.table.seats
    set_aside = sum(1 << c for c in state.hidden.set_aside)
    assert len(state.hidden.set_aside) == extra.set_aside
    # Every card once: played, removed or face down; nobody holds a card.
    assert p.all_played.bit_count() == n * p.table.tricks and not any(state.hands)
    assert p.all_played | extra.removed | set_aside == FULL
    assert (p.all_played & extra.removed) == (p.all_played & set_aside) == (extra.removed & set_aside) == 0
    assert sum(THIRDS[c] for c in cards_of(extra.removed)) == 0  # the removed cards are 4s and a 5
    v = rules.asso_bastoni_value
    # The tricks and the face-down cards hold 35 thirds; the special asso adds 3 * (v - 1) to its taker.
    assert sum(p.thirds) + sum(THIRDS[c] for c in state.hidden.set_aside) == 35
    assert sum(r.card_thirds) == 35 + 3 * (v - 1)
    last = p.table.sides[p.leader]
    taker = last
    for leader, cards, _ in p.tricks():
        if ASSO_DI_BASTONI in cards:
            taker = p.table.sides[trick_winner(leader, cards, n)]
    for side, (before, after) in enumerate(zip(p.thirds, r.card_thirds, strict=True)):
        face_down = sum(THIRDS[c] for c in state.hidden.set_aside) if side == last else 0
        assert after == before + face_down + (3 * (v - 1) if side == taker else 0)
    total = rules.total
    rounded = [t // 3 for t in r.card_thirds]
    avoid = rules.objective == "avoid"
    others_zero = all(x == 0 for s, x in enumerate(rounded) if s != last)
    if avoid and rules.cappotto != "none" and others_zero:
        assert r.cappotto == last and r.points == tuple(0 if s == last else total for s in range(len(rounded)))
        return
    assert r.cappotto == (last if rules.cappotto == "wins_match" and others_zero else None)
    expected = list(rounded)
    if rules.last_trick == "remainder":
        expected[last] = total - sum(x for s, x in enumerate(rounded) if s != last)
        if rules.zero_point_charge is None or not avoid:
            assert sum(r.points) == total
    if avoid and rules.zero_point_charge is not None:
        expected = [rules.zero_point_charge if x == 0 else x for x in expected]
    assert r.points == tuple(expected)


@settings(max_examples=100, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32 - 1))
def test_invariants_of_random_legal_play(rules, seed):
    rng = random.Random(seed)
    state = new_game(rules, seed)
    for _ in range(40):
        p = state.public
        n = p.table.seats
        assert [h.bit_count() for h in state.hands] == [
            40 // n + (p.table.extra.set_aside if p.table.phase == DISCARD and s == p.dealer else 0) for s in range(n)
        ]
        assert [a for a in range(rules.players) if p.table.seat_of[a] >= 0] == list(p.table.controllers)
        assert not set(p.table.controllers) & set(p.table.extra.out)
        while state.public.status == PLAYING:
            legal = legal_actions(state)
            assert legal
            seen = state.public.all_played | sum(1 << c for c in state.hidden.set_aside)
            for h in state.hands:  # no card in two places
                assert not h & seen
                seen |= h
            assert seen | state.public.table.extra.removed == FULL
            state = apply(state, rng.choice(legal))
        check_hand(rules, state)
        p = state.public
        returns = rules.game.returns(p) if p.status == GAME_OVER else None
        if p.status == GAME_OVER and rules.episode == "hand":
            sign = -1 if rules.objective == "avoid" else 1
            by_agent = [p.result.points[a % 2 if rules.teams else a] for a in range(rules.players)]
            assert returns == tuple(sign * x + 0.0 for x in by_agent)
        if p.status == GAME_OVER and rules.episode == "match":
            assert abs(sum(returns)) < 1e-9 and returns[p.winner] == 1.0 and all(-1 <= x <= 1 for x in returns)
            assert all(p.match_score[a] >= rules.target_score for a in p.table.extra.out)
            assert rules.teams or p.winner not in p.table.extra.out
        if p.status != HAND_OVER:
            break
        state = next_hand(state, rng)
    with pytest.raises(GameOverError):
        apply(state, 0)


@pytest.mark.parametrize("players", [3, 6, 7])
def test_random_play_with_every_reduce_mode(players):
    """Each reduce mode over many shuffled deals (beside the hypothesis test's mixed rule sets)."""
    rng = random.Random(players)
    for reduce in ("remove", "dealer_discard", "monte"):
        rules = APerdereRules(players=players, reduce=reduce)
        for seed in range(15):
            state = new_game(rules, seed)
            while state.public.status == PLAYING:
                state = apply(state, rng.choice(legal_actions(state)))
            check_hand(rules, state)
