"""Tressette a chiamare (FAMILY.md sections 5 and 6), rule by rule, with hand-built deals; invariants of random play.

Five players, eight cards each. The deals are written trick by trick: ``"3d 2d Ad Rd Cd"`` is
one trick, the cards of seat 0, 1, 2, 3, 4 in that order (``play_tricks`` plays them from the
trick's leader round). Unless a test says otherwise seat 4 deals, so seat 0 is the forehand: it
speaks first and (after a chiamo) leads the first trick. Every number asserted is worked out
by hand in the comments: card thirds are asso 3; 3, 2, re, cavallo, fante 1; 4 to 7 nothing;
the last trick 3 more (35 in a hand; a side wins with 18, six whole points). The stakes are
the seed's five-player table: after a chiamo each opponent pays 1 (2 on cappotto), the
caller takes 2 of the 3 units and the partner 1; after a sola each of the four pays 2 (4).

The no-leak tests compare deals that differ only in hidden cards: a seat that cannot tell
them apart must see byte-identical observations and action masks.
"""

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import action, by_seat, play_tricks
from tressette_env import tressette_a_chiamare_v0
from tressette_env.encoders.a_chiamare import observation, state_encoder
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAY,
    PLAYING,
    GameOverError,
    IllegalActionError,
    apply,
    cards_of,
    legal_actions,
    legal_actions_mask,
    new_game,
    next_hand,
    parse_card,
    parse_cards,
    renuncio,
    trick_winner,
    view,
)
from tressette_env.engine.actions import BUSSO, CALL, CHIAMO, PASS, SOLO, STRISCIO
from tressette_env.engine.switches import make_effective
from tressette_env.games.a_chiamare import (
    AUCTION,
    CALL_PHASE,
    AChiamareRules,
    make_rules,
    partner_of,
    revealed_partner,
)

FULL = (1 << 40) - 1
SOLA = SOLO  # the family's SOLO id is a chiamare's sola
RULES = AChiamareRules()
AGENTS = [f"player_{s}" for s in range(5)]


def swap(tricks, a, b):
    """The same deal with cards ``a`` and ``b`` (card codes) exchanged between their holders."""
    table = {a: b, b: a}
    return [" ".join(table.get(code, code) for code in trick.split()) for trick in tricks]


def deal(rules=RULES, tricks=None, dealer=4):
    return new_game(rules, hands=by_seat(tricks or WORKED), dealer=dealer)


def auction(state, bids):
    """The auction: ``bids`` maps a seat to its bid, every other seat passes (in speaking order)."""
    while state.public.table.phase == AUCTION and state.public.status == PLAYING:
        state = apply(state, bids.get(state.public.turn, PASS))
    return state


def called(card, rules=RULES, tricks=None, dealer=4, caller=0):
    """The deal after ``caller``'s chiamo (the others passing) and his call of ``card``."""
    state = auction(deal(rules, tricks, dealer), {caller: CHIAMO})
    assert state.public.table.phase == CALL_PHASE and state.public.turn == caller
    return apply(state, CALL + parse_card(card))


def sola(seat, rules=RULES, tricks=None, dealer=4):
    """The deal after ``seat``'s sola, the others passing."""
    return auction(deal(rules, tricks, dealer), {seat: SOLA})


def stakes(state):
    return state.public.table.extra.stakes


def pieces(state, seat, rules=RULES):
    """Seat ``seat``'s observation, unflattened into its named pieces."""
    obs = observation(rules)
    return obs.unflatten(obs.encode(view(state, seat)))


def one_hot(index, size):
    return [int(k == index) for k in range(size)]


ROLE = {"declarer": [1, 0, 0], "partner": [0, 1, 0], "opponent": [0, 0, 1], "unknown": [0, 0, 0]}


# The worked example (dealer 4, seat 0 the forehand): thirds by seat 10, 8, 7, 5, 5. Every trick
# is in one suit and everyone follows. Seat 0 calling the asso di bastoni (seat 2's) has 10 + 7 = 17
# thirds and loses, the seed's worked example; calling the 3 di spade (seat 1's), 10 + 8 = 18, wins.
WORKED = [
    "3d 2d Ad Rd Cd",  # s0 leads 3d: 1 + 1 + 3 + 1 + 1 = 7 to s0
    "Rc Cc Fc 6c 7c",  # s0 leads Rc: 1 + 1 + 1 = 3 (s0 10)
    "4d 5d Fd 6d 7d",  # s0 leads 4d, s2's fante takes: 1 to s2
    "Rb Cb Ab Fb 7b",  # s2 leads Ab: 1 + 1 + 3 + 1 = 6 (s2 7)
    "4s 3s As 5s 6s",  # s2 leads As, s1's 3 takes: 3 + 1 = 4 to s1
    "Rs 2s Cs Fs 7s",  # s1 leads 2s: 1 + 1 + 1 + 1 = 4 (s1 8)
    "2c Ac 4c 3c 5c",  # s1 leads Ac, s3's 3 takes: 1 + 3 + 1 = 5 to s3
    "2b 4b 5b 6b 3b",  # s3 leads 6b, s4's 3 takes the last trick: 1 + 1 + 3 = 5 to s4
]
WORKED_THIRDS = (10, 8, 7, 5, 5)
# Seat 0 holds the 3 and the 2 of every suit, the others two cards of each suit: seat 0 leads his
# 3s and 2s and takes every trick, 7 + 1 per suit and the last trick's 3: 35 thirds.
CLEAN = [
    "3d Ad Rd Cd Fd",  # 1 + 3 + 1 + 1 + 1 = 7
    "2d 7d 6d 5d 4d",  # 1 (8)
    "3c Rc Ac Fc Cc",  # 7 (15)
    "2c 6c 7c 4c 5c",  # 1 (16)
    "3s Cs Fs As Rs",  # 7 (23)
    "2s 5s 4s 7s 6s",  # 1 (24)
    "3b Fb Cb Rb Ab",  # 7 (31)
    "2b 4b 5b 6b 7b",  # 1 + 3 (35)
]
# Seat 2 takes the first trick with no counting card (seat 4 has no denari); seat 0 takes the rest:
# 35 thirds to seat 0, none but a trick to seat 2.
NEAR = [
    "4d 5d 7d 6d 4s",  # s0 leads 4d, s2's 7 takes: 0 thirds to s2
    "3d 2d Fd Ad 5s",  # s2 leads Fd, s0's 3 takes: 1 + 1 + 1 + 3 = 6 to s0
    "3c Ac Rc Cc Fc",  # 7 (13)
    "2c 7c 6c 5c 4c",  # 1 (14)
    "3b Ab Rb Cb Fb",  # 7 (21)
    "2b 7b 6b 5b 4b",  # 1 (22)
    "3s As Rs Cs Fs",  # 7 (29)
    "2s Rd 6s Cd 7s",  # s0 leads 2s; s1 and s3 hold only their denari: 1 + 1 + 1 + 3 = 6 (35)
]
# NEAR with seat 4's fante and 4 di spade exchanged: seat 2's first trick holds the fante, 1 third;
# seat 0's seventh 1 + 3 + 1 + 1 = 6: 34 thirds.
NEAR_ONE = swap(NEAR, "4s", "Fs")


def test_the_hand_built_deals_are_whole_decks():
    for tricks in (WORKED, CLEAN, NEAR, NEAR_ONE):
        cards = [c for hand in by_seat(tricks) for c in hand]
        assert len(cards) == 40 and sum(1 << c for c in cards) == FULL
        assert all(len(hand) == 8 for hand in by_seat(tricks))
    p = play_tricks(called("Ab"), WORKED).public
    assert p.thirds == WORKED_THIRDS
    assert play_tricks(called("Ab", tricks=NEAR), NEAR).public.thirds == (35, 0, 0, 0, 0)
    assert play_tricks(called("Ab", tricks=NEAR_ONE), NEAR_ONE).public.thirds == (34, 0, 1, 0, 0)


def rotate(tricks, k):
    """The same deal with every hand moved ``k`` seats on (seat ``s`` gets seat ``s - k``'s cards)."""
    return [" ".join(trick.split()[(s - k) % 5] for s in range(5)) for trick in tricks]


def hand_of(tricks, seat):
    return sum(1 << c for c in by_seat(tricks)[seat])


# ------------------------------------------------------------------ the deal and the auction


def test_five_hands_of_eight_and_the_forehand_speaks_first():
    for dealer in range(5):
        for seed in range(3):
            state = new_game(RULES, seed, dealer=dealer)
            p = state.public
            assert [h.bit_count() for h in state.hands] == [8] * 5 and sum(state.hands) == FULL
            assert state.dealt == state.hands and p.table.seats == 5 and p.table.tricks == 8
            assert p.table.phase == AUCTION and p.turn == (dealer + 1) % 5 and p.dealer == dealer
            assert p.table.extra.bids == (0,) * 5 and p.table.extra.called == -1
            assert legal_actions(state) == [PASS, CHIAMO, SOLA]  # nobody has bid: either contract
    assert {new_game(RULES, seed).public.dealer for seed in range(40)} == set(range(5))  # a drawn dealer
    state = deal(tricks=CLEAN, dealer=2)
    assert state.hands == tuple(hand_of(CLEAN, s) for s in range(5)) and state.public.turn == 3


def test_the_auction_one_turn_each_from_the_forehand_each_bid_above_the_standing_one():
    state = apply(deal(), CHIAMO)  # seat 0 (the forehand) chiamo: seat 1 may pass or outbid with sola
    assert state.public.turn == 1 and legal_actions(state) == [PASS, SOLA]
    with pytest.raises(IllegalActionError, match="in the auction the legal actions are those of the mask"):
        apply(state, CHIAMO)  # a second chiamo does not outrank the first
    with pytest.raises(IllegalActionError, match="in the auction"):
        apply(state, parse_card("2d"))  # no card play before the contract (seat 1 holds the 2 di denari)
    state = apply(state, SOLA)
    assert legal_actions(state) == [PASS]  # nothing outranks sola
    for seat in (2, 3, 4):
        assert state.public.turn == seat
        state = apply(state, PASS)
    p = state.public
    x = p.table.extra
    assert x.bids == (CHIAMO, SOLA, PASS, PASS, PASS) and x.contract == SOLA and x.declarer == 1
    assert p.table.phase == PLAY and p.turn == p.first_leader == 1  # the soloist leads (seed)
    assert p.history == (CHIAMO, SOLA, PASS, PASS, PASS)  # the bids are public
    for seat in range(5):  # in every observation, by relative seat: seat 0 chiamo (index 1), seat 1 sola (2)
        bids = pieces(state, seat)["bids"].tolist()
        assert bids[(0 - seat) % 5] == [0, 1, 0] and bids[(1 - seat) % 5] == [0, 0, 1]
        assert [bids[(s - seat) % 5] for s in (2, 3, 4)] == [[1, 0, 0]] * 3
        assert pieces(state, seat)["contract"].tolist() == [0, 1]
        assert pieces(state, seat)["declarer"].tolist() == one_hot((1 - seat) % 5, 5)
    # Passes, then a chiamo by the last seat to speak: he takes the contract and calls.
    state = auction(deal(), {4: CHIAMO})
    x = state.public.table.extra
    assert x.bids == (PASS, PASS, PASS, PASS, CHIAMO) and x.contract == CHIAMO and x.declarer == 4
    assert state.public.table.phase == CALL_PHASE and state.public.turn == 4
    # A sola from the forehand: the others may only pass; seat 2's chiamo is refused.
    state = apply(deal(), SOLA)
    assert legal_actions(state) == [PASS]
    state = auction(state, {})
    assert state.public.table.extra.declarer == 0 and state.public.turn == 0
    # Seat 1's chiamo, seat 3's sola over it: seat 3 plays alone, seat 1 calls nothing.
    state = auction(deal(), {1: CHIAMO, 3: SOLA})
    x = state.public.table.extra
    assert x.bids == (PASS, CHIAMO, PASS, SOLA, PASS) and (x.contract, x.declarer, x.called) == (SOLA, 3, -1)
    assert state.public.table.phase == PLAY and state.public.turn == 3


def test_first_taker_the_first_bid_takes_the_contract():
    rules = AChiamareRules(auction="first_taker")
    state = apply(deal(rules), PASS)
    assert legal_actions(state) == [PASS, CHIAMO, SOLA]
    state = apply(state, CHIAMO)  # seat 1's chiamo ends the auction at once: seats 2, 3, 4 never speak
    x = state.public.table.extra
    assert x.bids == (PASS, CHIAMO, 0, 0, 0) and x.declarer == 1 and state.public.table.phase == CALL_PHASE
    assert state.public.turn == 1
    state = apply(deal(rules), SOLA)
    assert state.public.table.extra.bids == (SOLA, 0, 0, 0, 0) and state.public.table.phase == PLAY
    assert auction(deal(rules), {}).public.table.extra.bids == (PASS,) * 5  # all pass: void, as ascending


def test_when_every_player_passes_the_hand_is_void_and_the_deal_moves_on():
    state = auction(deal(), {})
    p = state.public
    assert p.status == GAME_OVER and p.turn == -1 and stakes(state) == (0,) * 5
    assert p.result.points == (0, 0) and p.result.card_thirds == (0, 0) and p.result.cappotto is None
    info = RULES.game.hand_info(p)
    assert info["contract"] == "all passed" and info["declarer"] == -1 and info["stakes"] == [0] * 5
    assert RULES.game.returns(p) == (0.0,) * 5 and legal_actions(state) == []
    # In a match the void hand counts as a deal: the next dealer is seat 0, seat 1 speaks first.
    match = AChiamareRules(episode="match", rounds=2)
    state = auction(deal(match), {})
    assert state.public.status == HAND_OVER and state.public.match_score == (0,) * 5
    state = next_hand(state, seed=0)
    p = state.public
    assert p.dealer == 0 and p.turn == 1 and p.hand_number == 1 and p.table.phase == AUCTION
    assert [h.bit_count() for h in state.hands] == [8] * 5
    env = tressette_a_chiamare_v0.env()
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    for _ in range(5):
        env.step(PASS)
    assert all(env.terminations.values()) and set(env.rewards.values()) == {0.0}
    assert env.infos["player_3"]["contract"] == "all passed"


# ------------------------------------------------------------------ the call


def test_the_caller_names_any_card_he_lacks_and_the_call_is_public():
    state = auction(deal(), {0: CHIAMO})
    hand = hand_of(WORKED, 0)  # 3d Rc 4d Rb 4s Rs 2c 2b
    assert legal_actions(state) == [CALL + c for c in range(40) if not hand >> c & 1]  # the 32 others
    for own in ("3d", "2b"):
        with pytest.raises(IllegalActionError, match="in the call the legal actions are those of the mask"):
            apply(state, CALL + parse_card(own))
    with pytest.raises(IllegalActionError, match="in the call"):
        apply(state, parse_card("3d"))  # no card play before the call
    with pytest.raises(IllegalActionError, match="in the call"):
        apply(state, PASS)
    state = apply(state, CALL + parse_card("Ab"))
    p = state.public
    assert p.table.extra.called == parse_card("Ab") and p.history[-1] == CALL + parse_card("Ab")
    assert p.table.phase == PLAY and p.turn == p.leader == 0 and state.hands == state.dealt  # nothing changes hands
    for seat in range(5):
        assert pieces(state, seat)["called"].tolist() == one_hot(parse_card("Ab"), 40)
    # Through the environment: the caller's mask is the same 32 calls.
    env = tressette_a_chiamare_v0.env()
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    for a in (CHIAMO, PASS, PASS, PASS, PASS):
        env.step(a)
    assert env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert mask.nonzero()[0].tolist() == [CALL + c for c in range(40) if not hand >> c & 1]
    assert not env.observe("player_1")["action_mask"].any()  # nobody else is to act


def test_call_rule_highest_missing_and_the_self_call_switch():
    state = auction(deal(AChiamareRules(call_rule="highest_missing")), {0: CHIAMO})
    # Seat 0 holds the 3 di denari only: the 3s he lacks, coppe, spade, bastoni (ids 12, 22, 32).
    assert legal_actions(state) == [CALL + c for c in cards_of(parse_cards("3c 3s 3b"))]
    with pytest.raises(IllegalActionError):
        apply(state, CALL + parse_card("Ab"))
    # CLEAN's seat 0 holds every 3 and every 2: the four assi.
    state = auction(deal(AChiamareRules(call_rule="highest_missing"), CLEAN), {0: CHIAMO})
    assert legal_actions(state) == [CALL + c for c in cards_of(parse_cards("Ad Ac As Ab"))]
    # allow_self_call: his own cards too, all 40 with "any".
    state = auction(deal(AChiamareRules(allow_self_call=True)), {0: CHIAMO})
    assert legal_actions(state) == [CALL + c for c in range(40)]
    rules = AChiamareRules(allow_self_call=True, call_rule="highest_missing")
    state = auction(deal(rules, CLEAN), {0: CHIAMO})
    assert legal_actions(state) == sorted(CALL + c for c in cards_of(parse_cards("Ad Ac As Ab") | hand_of(CLEAN, 0)))


# ------------------------------------------------------------------ the secret partner


def test_the_partner_is_the_holder_of_the_called_card_and_only_he_knows_until_it_is_played():
    state = auction(deal(), {0: CHIAMO})
    assert partner_of(state) == -1 and revealed_partner(state.public) == -1
    assert pieces(state, 0)["role"].tolist() == ROLE["declarer"]  # the call phase: the caller, nobody else yet
    assert all(pieces(state, s)["role"].tolist() == ROLE["unknown"] for s in (1, 2, 3, 4))
    state = apply(state, CALL + parse_card("Ab"))  # seat 2 holds the asso di bastoni
    assert partner_of(state) == 2 and revealed_partner(state.public) == -1 and state.public.table.extra.announced == -1
    roles = ["declarer", "opponent", "partner", "opponent", "opponent"]

    def check_knowledge(state, known):
        for seat in range(5):
            got = pieces(state, seat)
            assert got["role"].tolist() == ROLE[roles[seat]]
            # The partner piece: the partner knows himself (relative seat 0); the others nothing until known.
            who = 2 if known or seat == 2 else None
            assert got["partner"].tolist() == (one_hot((who - seat) % 5, 5) if who is not None else [0] * 5)

    check_knowledge(state, known=False)
    assert RULES.game.seat_label(state.public, 2, AGENTS) == "player_2"  # not marked as the partner
    state = play_tricks(state, WORKED[:3])  # seat 2 takes the third trick and leads the fourth
    assert state.public.turn == 2 and revealed_partner(state.public) == -1
    check_knowledge(state, known=False)
    state = apply(state, parse_card("Ab"))  # the called card is played: everyone knows
    assert revealed_partner(state.public) == 2 and partner_of(state) == 2
    check_knowledge(state, known=True)
    assert RULES.game.seat_label(state.public, 2, AGENTS) == "player_2 (partner)"
    assert RULES.game.seat_label(state.public, 0, AGENTS) == "player_0 (caller)"
    # The state for critics holds the partner from the call on.
    enc = state_encoder(RULES)
    for s in (called("Ab"), state):
        assert enc.encode(s)[enc.slices["partner"]].tolist() == one_hot(2, 5)
    assert enc.encode(called("3s"))[enc.slices["partner"]].tolist() == one_hot(1, 5)
    # A sola has no partner: the four others are opponents.
    state = sola(0)
    assert partner_of(state) == -1 and revealed_partner(state.public) == -1
    assert enc.encode(state)[enc.slices["partner"]].tolist() == [0] * 5
    assert [pieces(state, s)["role"].tolist() for s in range(5)] == [ROLE["declarer"]] + [ROLE["opponent"]] * 4
    assert RULES.game.seat_label(state.public, 0, AGENTS) == "player_0 (soloist)"


def test_reveal_partner_announces_the_partner_at_the_call():
    rules = AChiamareRules(reveal_partner=True)
    state = called("Ab", rules)
    assert state.public.table.extra.announced == 2 and revealed_partner(state.public) == 2
    for seat in range(5):
        assert pieces(state, seat, rules)["partner"].tolist() == one_hot((2 - seat) % 5, 5)
    assert RULES.game.seat_label(state.public, 2, AGENTS) == "player_2 (partner)"
    # Scored as a secret call: 17 thirds, lost.
    assert stakes(play_tricks(state, WORKED)) == (-2, 1, -1, 1, 1)
    # With a self-call the announcement is the caller himself; after a sola nothing is announced.
    both = AChiamareRules(reveal_partner=True, allow_self_call=True)
    assert called("3d", both).public.table.extra.announced == 0
    assert sola(0, rules).public.table.extra.announced == -1


def test_a_self_call_plays_alone_scored_as_a_sola_while_the_table_believes_it_a_chiamo():
    rules = AChiamareRules(allow_self_call=True)
    state = called("3s", rules, caller=1)  # seat 1 holds the 3 di spade himself
    x = state.public.table.extra
    assert partner_of(state) == 1 and x.contract == CHIAMO and x.declarer == 1
    assert state.public.turn == 0  # the forehand leads, as after any call
    # Nobody knows: every other seat is an opponent that does not know the partner, as after any call.
    assert pieces(state, 1, rules)["role"].tolist() == ROLE["declarer"]
    for seat in (0, 2, 3, 4):
        assert pieces(state, seat, rules)["role"].tolist() == ROLE["opponent"]
        assert pieces(state, seat, rules)["partner"].tolist() == [0] * 5
    state = play_tricks(state, WORKED[:4])
    state = apply(apply(state, parse_card("As")), parse_card("5s"))  # trick 5: seat 2 leads, seat 3 follows
    state = apply(apply(state, parse_card("6s")), parse_card("4s"))
    assert revealed_partner(state.public) == -1
    state = apply(state, parse_card("3s"))  # seat 1 plays his own called card: the table sees it
    assert revealed_partner(state.public) == 1
    assert pieces(state, 3, rules)["partner"].tolist() == one_hot((1 - 3) % 5, 5)
    p = play_tricks(state, WORKED[5:]).public
    # Seat 1 alone: 8 thirds (2 points) against 27 (9): lost, the sola's 2 from each of the four.
    assert p.result.card_thirds == (8, 27) and p.result.points == (2, 9)
    state = play_tricks(called("3s", rules, caller=1), WORKED)
    assert stakes(state) == (2, -8, 2, 2, 2) and rules.game.hand_info(state.public)["contract"] == "chiamo"
    # A self-call that takes every trick: the sola's cappotto, 4 from each.
    assert stakes(play_tricks(called("3d", rules, tricks=CLEAN), CLEAN)) == (16, -4, -4, -4, -4)
    # Its multiplier is the sola's.
    rules = AChiamareRules(allow_self_call=True, multipliers={"chiamo": 5, "sola": 3})
    assert stakes(play_tricks(called("3d", rules, tricks=CLEAN), CLEAN)) == (24, -6, -6, -6, -6)


# ------------------------------------------------------------------ the stakes


@pytest.mark.parametrize(
    "tricks, bids, call, thirds, points, cappotto, expected",
    [
        # The seed's worked example: seats 0 and 2 (the asso di bastoni), 10 + 7 = 17 thirds (5 points),
        # the others 8 + 5 + 5 = 18 (6): the call fails: caller -2, partner -1, each opponent +1.
        (WORKED, {0: CHIAMO}, "Ab", (17, 18), (5, 6), None, (-2, 1, -1, 1, 1)),
        # Seat 1's 3 di spade: 10 + 8 = 18 thirds (6 points), the least that wins: +2, +1, -1 each.
        (WORKED, {0: CHIAMO}, "3s", (18, 17), (6, 5), None, (2, 1, -1, -1, -1)),
        # Seat 3's 3 di coppe: 10 + 5 = 15 (5 points) against 20 (6): lost.
        (WORKED, {0: CHIAMO}, "3c", (15, 20), (5, 6), None, (-2, 1, 1, -1, 1)),
        # Sola: seat 0 alone, 10 thirds (3 points) against 25 (8): lost, 2 to each of the four.
        (WORKED, {0: SOLA}, None, (10, 25), (3, 8), None, (-8, 2, 2, 2, 2)),
        # CLEAN: seat 0 takes all 35; calling seat 4's asso di bastoni: cappotto, +4, +2, -2 each.
        (CLEAN, {0: CHIAMO}, "Ab", (35, 0), (11, 0), 0, (4, -2, -2, -2, 2)),
        # Sola on cappotto: 4 from each of the four.
        (CLEAN, {0: SOLA}, None, (35, 0), (11, 0), 0, (16, -4, -4, -4, -4)),
        # Seat 1 calls seat 2's re di denari; the forehand (seat 0) leads and takes everything: the call
        # lost on cappotto: caller -4, partner -2, each opponent +2.
        (CLEAN, {1: CHIAMO}, "Rd", (0, 35), (0, 11), 1, (2, -4, -2, 2, 2)),
    ],
)
def test_the_stakes_of_the_seed_s_five_player_table(tricks, bids, call, thirds, points, cappotto, expected):
    state = auction(deal(tricks=tricks), bids)
    if call:
        state = apply(state, CALL + parse_card(call))
    state = play_tricks(state, tricks)
    p = state.public
    assert p.status == GAME_OVER and p.result.card_thirds == thirds and p.result.points == points
    assert p.result.cappotto == cappotto and stakes(state) == expected
    assert sum(expected) == 0 and RULES.game.returns(p) == tuple(map(float, expected))
    info = RULES.game.hand_info(p)
    declarer = next(iter(bids))
    assert info["stakes"] == list(expected) and info["declarer"] == declarer
    assert info["contract"] == ("chiamo" if call else "sola")
    # The environment: the same actions, the same rewards, the stakes in every agent's infos.
    env = tressette_a_chiamare_v0.env()
    env.reset(options={"hands": by_seat(tricks), "dealer": 4})
    for a in p.history:
        env.step(a)
    assert all(env.terminations.values())
    assert tuple(env.rewards[agent] for agent in AGENTS) == tuple(map(float, expected))
    assert env.infos["player_3"]["stakes"] == list(expected) and env.infos["player_0"]["declarer"] == declarer


@pytest.mark.parametrize(
    "tricks, call, rule, expected",
    [
        # NEAR, seat 1's asso di bastoni: the calling side has 35 thirds, seat 2 a trick with none.
        (NEAR, "Ab", "zero_points", (4, 2, -2, -2, -2)),  # no whole point: cappotto
        (NEAR, "Ab", "zero_thirds", (4, 2, -2, -2, -2)),  # no third either: cappotto
        (NEAR, "Ab", "all_tricks", (2, 1, -1, -1, -1)),  # but a trick: no cappotto
        # NEAR_ONE: seat 2's trick holds 1 third.
        (NEAR_ONE, "Ab", "zero_points", (4, 2, -2, -2, -2)),  # 1 third is no whole point
        (NEAR_ONE, "Ab", "zero_thirds", (2, 1, -1, -1, -1)),
        (NEAR_ONE, "Ab", "all_tricks", (2, 1, -1, -1, -1)),
        # Seat 2 the partner (the re di bastoni): the calling side takes every trick, cappotto by any rule.
        (NEAR, "Rb", "all_tricks", (4, -2, 2, -2, -2)),
        (NEAR_ONE, "Rb", "zero_thirds", (4, -2, 2, -2, -2)),
    ],
)
def test_cappotto_rule_decides_when_the_stake_doubles(tricks, call, rule, expected):
    rules = AChiamareRules(cappotto_rule=rule)
    state = play_tricks(called(call, rules, tricks), tricks)
    assert stakes(state) == expected and sum(expected) == 0
    assert state.public.result.cappotto == (0 if expected[0] == 4 else None)


def test_multipliers_set_what_each_opponent_pays_before_a_cappotto_doubles_it():
    rules = AChiamareRules(multipliers={"chiamo": 3})
    assert (rules.multiplier("chiamo"), rules.multiplier("sola")) == (3, 2)  # sola keeps its default
    # The won call: 3 from each of three opponents, 9 units: 6 to the caller, 3 to the partner.
    assert stakes(play_tricks(called("3s", rules), WORKED)) == (6, 3, -3, -3, -3)
    # On cappotto 6 each, 18: 12 and 6.
    assert stakes(play_tricks(called("Ab", rules, CLEAN), CLEAN)) == (12, -6, -6, -6, 6)
    assert stakes(play_tricks(sola(0, rules, CLEAN), CLEAN)) == (16, -4, -4, -4, -4)
    rules = AChiamareRules(multipliers={"sola": 5})
    assert stakes(play_tricks(sola(0, rules, CLEAN), CLEAN)) == (40, -10, -10, -10, -10)  # 5 doubled, from four
    assert stakes(play_tricks(called("3s", rules), WORKED)) == (2, 1, -1, -1, -1)
    rules = AChiamareRules(multipliers={"chiamo": 1, "sola": 1})
    assert stakes(play_tricks(sola(0, rules), WORKED)) == (-4, 1, 1, 1, 1)  # the lost sola, 1 to each


def test_a_sola_lost_on_cappotto_and_first_lead_forehand():
    rules = AChiamareRules(first_lead="forehand")
    state = sola(1, rules, CLEAN)  # seat 0 passes, seat 1 sola: seat 0 (the forehand) leads all the same
    assert state.public.turn == 0 and state.public.table.extra.declarer == 1
    state = play_tricks(state, CLEAN)
    # Seat 1 alone takes nothing: lost on cappotto, 4 to each of the four.
    assert state.public.result.card_thirds == (0, 35) and state.public.result.cappotto == 1
    assert stakes(state) == (4, -16, 4, 4, 4)


def test_the_thirds_are_kept_by_seat_and_added_up_by_side_when_the_hand_ends():
    state = called("Ab")
    assert state.public.table.sides == (0, 1, 2, 3, 4) and state.public.thirds == (0,) * 5
    state = play_tricks(state, WORKED[:1])
    assert state.public.thirds == (7, 0, 0, 0, 0)  # trick 1's 7 thirds to seat 0 alone
    thirds = pieces(state, 2)["thirds"]  # seat 2's view: itself first, then seats 3, 4, 0, 1
    assert thirds.sum(axis=1).tolist() == [0, 0, 0, 7, 0]
    state = play_tricks(state, WORKED[1:4])
    assert state.public.thirds == (10, 0, 7, 0, 0)
    one, other = play_tricks(called("Ab"), WORKED).public, play_tricks(called("3s"), WORKED).public
    # The same tricks by seat; the sides added at the end from the partner: 10 + 7 and 10 + 8.
    assert one.thirds == other.thirds == WORKED_THIRDS
    assert one.result.card_thirds == (17, 18) and other.result.card_thirds == (18, 17)
    assert RULES.game.lead(one, 0) == pytest.approx(10 / 3)


@pytest.mark.parametrize(
    "first_lead, contract, dealer, leader",
    [
        ("seed", CHIAMO, 4, 0),  # the forehand after a chiamo
        ("seed", SOLA, 4, 2),  # the soloist after a sola
        ("forehand", CHIAMO, 4, 0),
        ("forehand", SOLA, 4, 0),
        ("declarer", CHIAMO, 4, 2),
        ("declarer", SOLA, 4, 2),
        ("seed", CHIAMO, 1, 2),  # dealer 1: the forehand is seat 2, also the caller
        ("seed", CHIAMO, 0, 1),
        ("declarer", SOLA, 0, 2),
    ],
)
def test_the_first_lead(first_lead, contract, dealer, leader):
    rules = AChiamareRules(first_lead=first_lead)
    state = auction(deal(rules, dealer=dealer), {2: contract})  # seat 2 bids, the others pass
    if contract == CHIAMO:
        state = apply(state, CALL + parse_card("3d"))  # seat 2 lacks it (seat 0 holds it)
    p = state.public
    assert p.table.phase == PLAY and p.turn == p.leader == p.first_leader == leader


# ------------------------------------------------------------------ the signs


def test_the_seed_s_signs_busso_and_striscio_from_the_second_trick():
    state = called("Ab")
    hand = hand_of(WORKED, 0)  # 3d 4d, Rc 2c, 4s Rs, Rb 2b: two of each suit
    assert legal_actions(state) == cards_of(hand)  # trick 1: no sign
    with pytest.raises(IllegalActionError, match="signals are allowed from trick 2 on"):
        apply(state, action("3d busso"))
    state = play_tricks(state, WORKED[:1])  # seat 0 takes trick 1 and leads again
    # Busso and striscio on a card of a suit he keeps another of (coppe, spade, bastoni); the 4 di
    # denari is his last denaro, and the volo is not one of the seed's signs.
    kept = parse_cards("Rc 2c 4s Rs Rb 2b")
    signs = [c + 40 * k for k in (BUSSO, STRISCIO) for c in cards_of(kept)]
    assert legal_actions(state) == sorted(cards_of(hand & ~parse_cards("3d")) + signs)
    with pytest.raises(IllegalActionError, match="may not give that signal"):
        apply(state, action("4d volo"))
    with pytest.raises(IllegalActionError, match="a signal must be true"):
        apply(state, action("4d busso"))
    state = apply(state, action("Rc busso"))
    for seat in range(5):  # public: in every seat's observation (relative seat x suit x sign)
        signals = pieces(state, seat)["signals"]
        assert signals.sum() == 1 and signals[(0 - seat) % 5, 1, 0] == 1  # coppe (suit 1), busso
    # A follower may not sign.
    with pytest.raises(IllegalActionError, match="only the leader of a trick may signal"):
        apply(state, action("Cc busso"))


def test_signals_full_from_the_first_trick_and_none():
    rules = AChiamareRules(signals="full")
    state = called("Ab", rules)
    hand = hand_of(WORKED, 0)
    # Two of every suit: busso and striscio on each of his eight cards from trick 1; no volo yet.
    assert legal_actions(state) == sorted(
        cards_of(hand) + [c + 40 * k for k in (BUSSO, STRISCIO) for c in cards_of(hand)]
    )
    state = play_tricks(state, WORKED[:1])
    assert action("4d volo") in legal_actions(state)  # now his last denaro
    rules = AChiamareRules(signals="none")
    state = play_tricks(called("Ab", rules), WORKED[:1])
    assert legal_actions(state) == cards_of(hand & ~parse_cards("3d"))
    with pytest.raises(IllegalActionError, match="signals are off"):
        apply(state, action("Rc busso"))
    assert "signals" not in observation(rules).slices
    assert observation(rules).size == observation(RULES).size - 5 * 4 * 3


# ------------------------------------------------------------------ the match


def test_a_match_of_rounds_is_every_player_dealing_rounds_times():
    rules = AChiamareRules(episode="match", rounds=1)
    state = play_tricks(called("3s", rules), WORKED)  # the won call: 2, 1, -1, -1, -1
    p = state.public
    assert p.status == HAND_OVER and p.match_score == (2, 1, -1, -1, -1) and p.winner is None
    for k in range(1, 5):
        state = next_hand(state, seed=k)
        p = state.public
        assert p.dealer == k - 1 and p.turn == k % 5 and p.hand_number == k and p.table.phase == AUCTION
        assert p.match_score == (2, 1, -1, -1, -1) and p.table.extra.stakes == ()
        state = auction(state, {})  # every player passes: a void deal still counts
        assert state.public.status == (GAME_OVER if k == 4 else HAND_OVER)
    p = state.public
    assert p.winner == 0 and rules.game.returns(p) == (2.0, 1.0, -1.0, -1.0, -1.0)  # each agent's total
    with pytest.raises(GameOverError, match="nobody is to act"):
        apply(state, PASS)
    # rounds=2: ten deals.
    rules = AChiamareRules(episode="match", rounds=2)
    state = auction(deal(rules), {})
    for _ in range(9):
        assert state.public.status == HAND_OVER
        state = auction(next_hand(state, seed=0), {})
    assert state.public.status == GAME_OVER and state.public.hand_number == 9 and state.public.winner is None
    # The next hand's deal may be chosen, but not its dealer: it follows from the last hand.
    rules = AChiamareRules(episode="match")
    done = play_tricks(called("3s", rules), WORKED)
    with pytest.raises(TypeError, match="dealer follows from the last hand"):
        next_hand(done, hands=by_seat(CLEAN), dealer=1)
    state = next_hand(done, hands=by_seat(CLEAN))
    assert state.hands == tuple(hand_of(CLEAN, s) for s in range(5)) and state.public.dealer == 0
    with pytest.raises(GameOverError, match="next_hand needs a finished hand"):
        next_hand(state)
    with pytest.raises(GameOverError, match="next_hand needs a finished hand"):
        next_hand(play_tricks(called("3s"), WORKED))  # a one-hand episode is over for good


def test_a_match_to_a_target_ends_when_one_player_alone_has_the_most_at_or_above_it():
    rules = AChiamareRules(episode="match", match_end="target", target_score=2)
    p = play_tricks(called("3s", rules), WORKED).public
    assert p.status == GAME_OVER and p.winner == 0 and p.match_score == (2, 1, -1, -1, -1)
    # Target 1 and the worked example: seats 1, 3 and 4 reach it together (+1 each): the match goes on.
    rules = AChiamareRules(episode="match", match_end="target", target_score=1)
    state = play_tricks(called("Ab", rules), WORKED)
    assert state.public.status == HAND_OVER and state.public.match_score == (-2, 1, -1, 1, 1)
    obs = observation(rules)
    to_target = obs.unflatten(obs.encode(view(next_hand(state, seed=0), 0)))["to_target"]
    assert to_target.sum(axis=1).tolist() == [3, 0, 2, 0, 0]  # 1 - (-2) = 3, 1 - 1 = 0, 1 - (-1) = 2
    # The next hand (dealer 0): CLEAN moved one seat on, so seat 1 holds the 3s and 2s and is the
    # forehand; his sola takes every trick: 16, -4 each: 14, 17, -5, -3, -3.
    second = rotate(CLEAN, 1)
    state = auction(next_hand(state, hands=by_seat(second)), {1: SOLA})
    assert state.public.turn == 1
    p = play_tricks(state, second).public
    assert p.match_score == (-6, 17, -5, -3, -3) and p.status == GAME_OVER and p.winner == 1
    assert rules.game.returns(p) == (-6.0, 17.0, -5.0, -3.0, -3.0) and sum(p.match_score) == 0


def test_the_environment_plays_a_match_and_rewards_each_agent_s_total():
    env = tressette_a_chiamare_v0.env(episode="match", rounds=1)
    env.reset(seed=3, options={"hands": by_seat(WORKED), "dealer": 4})
    for a in play_tricks(called("3s"), WORKED).public.history:
        env.step(a)
    assert not any(env.terminations.values()) and env.infos["player_2"]["stakes"] == [2, 1, -1, -1, -1]
    assert env.agent_selection == "player_1"  # dealer 0 now: seat 1 speaks first
    assert set(env.rewards.values()) == {0.0}  # rewards only at the match's end
    rng = random.Random(0)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(mask.nonzero()[0].tolist()))
    rewards = [env.rewards[a] for a in AGENTS]
    assert sum(rewards) == 0 and tuple(rewards) == tuple(map(float, env.unwrapped.game.public.match_score))
    assert env.unwrapped.game.public.hand_number == 4


# ------------------------------------------------------------------ renuncio and errors


@pytest.mark.parametrize(
    "switches, moves, offender, rewards",
    [
        # Seat 1 (an opponent of seats 0 and 2) throws the cavallo di coppe on the 3 di denari, holding
        # the 2 and the 5: the calling side wins as on cappotto, +4, +2, -2 each.
        ({}, [CHIAMO, PASS, PASS, PASS, PASS, CALL + parse_card("Ab"), "3d", "Cc"], 1, (4, -2, 2, -2, -2)),
        # The same renuncio by the partner (seat 1 holds the called 3 di spade): the call lost as on cappotto.
        ({}, [CHIAMO, PASS, PASS, PASS, PASS, CALL + parse_card("3s"), "3d", "Cc"], 1, (-4, -2, 2, 2, 2)),
        # The caller leads a card he does not hold (seat 1's 2 di denari).
        ({}, [CHIAMO, PASS, PASS, PASS, PASS, CALL + parse_card("Ab"), "2d"], 0, (-4, 2, -2, 2, 2)),
        # Sola: the soloist's renuncio, -16 and +4 each; an opponent's, +16 and -4 each.
        ({}, [SOLA, PASS, PASS, PASS, PASS, "2d"], 0, (-16, 4, 4, 4, 4)),
        ({}, [SOLA, PASS, PASS, PASS, PASS, "3d", "Cc"], 1, (16, -4, -4, -4, -4)),
        # A self-call renounced: alone, the sola's stake on cappotto.
        ({"allow_self_call": True}, [CHIAMO, PASS, PASS, PASS, PASS, CALL + parse_card("3d"), "2d"], 0,
         (-16, 4, 4, 4, 4)),
        # Before a card is called the offender pays each other player 2: a card in the auction, a second
        # chiamo, or a call of his own card.
        ({}, ["3d"], 0, (-8, 2, 2, 2, 2)),
        ({}, [CHIAMO, PASS, CHIAMO], 2, (2, 2, -8, 2, 2)),
        ({}, [CHIAMO, PASS, PASS, PASS, PASS, CALL + parse_card("3d")], 0, (-8, 2, 2, 2, 2)),
    ],
)  # fmt: skip
def test_a_renuncio_loses_the_contract_as_on_cappotto(switches, moves, offender, rewards):
    env = tressette_a_chiamare_v0.env(**switches)
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    moves = [parse_card(m) if isinstance(m, str) else m for m in moves]
    for a in moves[:-1]:
        env.step(a)
    assert env.agent_selection == AGENTS[offender]
    before_call = -8 in rewards  # the cases before a card is called: 2 to each other player
    words = "before a card is called, the offender pays" if before_call else "its side loses the contract as on"
    with pytest.warns(tressette_a_chiamare_v0.RenuncioWarning, match=f"renuncio: player_{offender}.*{words}"):
        env.step(moves[-1])
    assert all(env.terminations.values()) and sum(rewards) == 0
    assert tuple(env.rewards[a] for a in AGENTS) == tuple(map(float, rewards))
    assert env.infos["player_4"]["renuncio"]["agent"] == AGENTS[offender]
    assert env.unwrapped.game.public.result.renuncio == offender
    # The play screen's end of the hand: sides only once they are set (the partner named by the stakes).
    from tressette_env.play import hand_over_lines

    names = [f"player {a}" for a in range(5)]
    lines = hand_over_lines(env.unwrapped.game.public, names, names)
    assert f"stakes: {' · '.join(f'player {a} {r:+d}' for a, r in enumerate(rewards))}" in lines
    sides = [line for line in lines if line.startswith(("contract:", "caller's side", "soloist", "opponents"))]
    if before_call:
        assert sides == [], lines
    else:
        team = [a for a in range(5) if (rewards[a] > 0) == (rewards[0] > 0)]  # seat 0 declares in every case
        role = "soloist" if len(team) == 1 else "caller's side"
        assert sides[0].startswith("contract:") and sides[1].startswith(f"{role} ({', '.join(names[a] for a in team)})")
    # The engine's renuncio: the same stakes for the seat on turn.
    state = deal(make_rules(**switches))
    for a in moves[:-1]:
        state = apply(state, a)
    assert stakes(renuncio(state)) == rewards


def test_illegal_action_raise_refuses_it_and_changes_nothing():
    env = tressette_a_chiamare_v0.raw_env(illegal_action="raise")
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    game = env.game
    with pytest.raises(IllegalActionError, match="player_0 took illegal action 2"):
        env.step(parse_card("3d"))  # a card in the auction
    assert env.game is game and env.agent_selection == "player_0"
    for a in (CHIAMO, PASS, PASS, PASS, PASS):
        env.step(a)
    game = env.game
    with pytest.raises(IllegalActionError, match="took illegal action"):
        env.step(CALL + parse_card("3d"))  # his own card
    assert env.game is game and env.game.public.table.phase == CALL_PHASE
    env.step(CALL + parse_card("Ab"))
    env.step(parse_card("3d"))
    game = env.game
    with pytest.raises(IllegalActionError, match="player_1 took illegal action"):
        env.step(parse_card("Cc"))  # seat 1 holds denari
    assert env.game is game and env.agent_selection == "player_1" and not any(env.terminations.values())
    env.step(parse_card("2d"))
    assert env.game.public.trick == (parse_card("3d"), parse_card("2d"))
    # The engine always refuses an illegal action; the position is the same afterwards.
    state = called("Ab")
    before = legal_actions(state)
    with pytest.raises(IllegalActionError, match="the card is not in its hand"):
        apply(state, parse_card("Ab"))
    assert legal_actions(state) == before and state.public.history[-1] == CALL + parse_card("Ab")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"hands": by_seat(WORKED)[:4], "dealer": 0}, "a deal's hands are 5 lists of 8"),
        ({"hands": by_seat(WORKED)[:4] + [by_seat(WORKED)[4][:7]]}, "hand 4 of the deal has 7 cards; it needs exactly 8"),
        ({"hands": [by_seat(WORKED)[0]] * 5}, "card 2 is dealt in hand 0 and in hand 1"),
        ({"hands": by_seat(WORKED)[:4] + [by_seat(WORKED)[4][:7] + [40]]}, "hand 4 of the deal holds card id 40"),
        ({"hands": by_seat(WORKED), "dealer": 5}, r"dealer must be a seat 0\.\.4"),
        ({"hands": by_seat(WORKED), "dealer": True}, r"dealer must be a seat 0\.\.4"),
        ({"monte": []}, r"unknown reset option\(s\) \['monte'\]"),
    ],
)  # fmt: skip
def test_a_bad_chosen_deal_is_refused_and_changes_nothing(options, message):
    env = tressette_a_chiamare_v0.raw_env()
    env.reset(seed=0)
    game = env.game
    with pytest.raises(ValueError, match=message):
        env.reset(seed=1, options=options)
    assert env.game is game
    if "monte" not in options:
        with pytest.raises(ValueError, match=message):
            new_game(RULES, seed=0, **options)


def test_bad_rule_switches_and_deal_options_are_named():
    for switches, message in (
        ({"players": 4}, "players=4: must be one of 5"),
        ({"auction": "descending"}, "auction='descending': must be one of 'ascending', 'first_taker'"),
        ({"call_rule": "lowest"}, "call_rule='lowest': must be one of 'any', 'highest_missing'"),
        ({"allow_self_call": 1}, "allow_self_call=1: must be True or False"),
        ({"reveal_partner": "yes"}, "reveal_partner='yes': must be True or False"),
        ({"first_lead": "dealer"}, "first_lead='dealer': must be one of 'seed', 'forehand', 'declarer'"),
        (
            {"multipliers": {"solo": 2}},
            r"multipliers=.*must be a dict from 'chiamo', 'sola' to ints 1..10000; 'solo'",
        ),
        ({"multipliers": {"chiamo": 0}}, "'chiamo': 0 is not"),
        ({"multipliers": {"chiamo": 2**62}}, "'chiamo': 4611686018427387904 is not"),  # int64 stakes stay exact
        ({"multipliers": {"sola": True}}, "'sola': True is not"),
        ({"multipliers": 3}, "multipliers=3: must be a dict"),
        ({"cappotto_rule": "none"}, "cappotto_rule='none': must be one of"),
        ({"signals": True}, "signals=True: must be one of 'seed', 'full', 'none'"),
        ({"all_pass": "redeal"}, "all_pass='redeal': must be one of 'void'"),
        ({"episode": "game"}, "episode='game': must be one of 'hand', 'match'"),
        ({"match_end": "never"}, "match_end='never': must be one of 'rounds', 'target'"),
        ({"rounds": 0}, "rounds=0: must be an int 1..10000"),
        ({"target_score": 0}, "target_score=0: must be an int 1..10000"),
        ({"rounds": 10**30}, "rounds=1000000000000000000000000000000: must be an int 1..10000"),
        ({"illegal_action": "warn"}, "illegal_action='warn': must be one of 'renuncio', 'raise'"),
    ):
        with pytest.raises(ValueError, match=message):
            make_rules(**switches)
        with pytest.raises(ValueError, match=message):
            tressette_a_chiamare_v0.env(**switches)
    with pytest.raises(TypeError, match="unknown rule switch 'player'"):
        make_rules(player=5)
    with pytest.raises(TypeError, match=r"unknown deal option\(s\) \['monte'\] for tressette_a_chiamare"):
        new_game(RULES, seed=0, monte=[])
    assert make_rules(multipliers={"sola": 3}).multipliers == (("sola", 3),)


def test_a_bad_action_value_is_refused_and_changes_nothing():
    env = tressette_a_chiamare_v0.raw_env()
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    game = env.game
    for bad, error, message in (
        (255, ValueError, r"action 255 is out of range: action ids are 0\.\.254"),
        (-1, ValueError, "action -1 is out of range"),
        (True, TypeError, "an action is an integer id 0..254; got True"),
        ("pass", TypeError, "got 'pass'"),
        (None, TypeError, "got None"),
    ):
        with pytest.raises(error, match=message):
            env.step(bad)
        assert env.game is game and env.agent_selection == "player_0"
    env.step(np.int64(CHIAMO))  # a NumPy int is an action id
    assert env.game.public.table.extra.bids[0] == CHIAMO and type(env.game.public.history[0]) is int
    with pytest.raises(IllegalActionError, match="in the auction"):
        apply(game, 255)  # past the family's ids: refused by the engine as well


def test_nothing_acts_after_the_end():
    state = play_tricks(called("3s"), WORKED)
    assert legal_actions(state) == [] and legal_actions_mask(state) == 0
    for move in (0, PASS, CALL):
        with pytest.raises(GameOverError, match="nobody is to act"):
            apply(state, move)
    with pytest.raises(GameOverError):
        renuncio(state)
    env = tressette_a_chiamare_v0.raw_env()
    env.reset(options={"hands": by_seat(WORKED), "dealer": 4})
    for a in state.public.history:
        env.step(a)
    assert all(env.terminations.values()) and not env.observe("player_0")["action_mask"].any()
    game = env.game
    with pytest.raises(ValueError, match="when an agent is dead, the only valid action is None"):
        env.step(0)
    for _ in AGENTS:
        env.step(None)
    with pytest.raises(RuntimeError, match="step\\(\\) after the episode ended"):
        env.step(0)
    assert env.game is game


# ------------------------------------------------------------------ no leak: what each seat knows


def observed(env, agents):
    """Each agent's observation and action mask as bytes."""
    return {a: tuple(env.observe(a)[key].tobytes() for key in ("observation", "action_mask")) for a in agents}


def pair_of_envs(rules, one, two, dealer=4):
    envs = []
    for hands in (one, two):
        env = tressette_a_chiamare_v0.raw_env(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)})
        assert env.rules == rules
        env.reset(options={"hands": hands, "dealer": dealer})
        envs.append(env)
    return envs


@pytest.mark.parametrize(
    "switches, bids, card, other, before, blind, holders",
    [
        # Seat 0 calls the asso di bastoni: seat 2's, or (exchanged for the fante di bastoni) seat 3's.
        # Seats 0, 1 and 4 cannot tell the two deals apart until it is played in trick 4.
        ({}, {0: CHIAMO}, "Ab", "Fb", 3, (0, 1, 4), (2, 3)),
        # Seat 1 calls the 3 di spade: his own (a self-call, scored as a sola) or (exchanged for the 5 di
        # spade) seat 3's. Seats 0, 2 and 4 cannot tell until trick 5.
        ({"allow_self_call": True}, {1: CHIAMO}, "3s", "5s", 4, (0, 2, 4), (1, 3)),
        # The same pairs under other switches: all the signs, the highest-missing call rule.
        ({"signals": "full", "first_lead": "declarer"}, {0: CHIAMO}, "Ab", "Fb", 3, (0, 1, 4), (2, 3)),
        ({"call_rule": "highest_missing", "allow_self_call": True}, {1: CHIAMO}, "3s", "5s", 4, (0, 2, 4), (1, 3)),
    ],
)  # fmt: skip
def test_no_leak_seats_that_cannot_tell_the_partner_see_the_same_until_the_called_card_is_played(
    switches, bids, card, other, before, blind, holders
):
    rules = make_rules(**switches)
    one, two = WORKED, swap(WORKED, card, other)
    assert [partner_of(called(card, rules, t, caller=next(iter(bids)))) for t in (one, two)] == list(holders)
    state = apply(auction(deal(rules, one), bids), CALL + parse_card(card))
    actions = play_tricks(state, one[:before]).public.history
    env_one, env_two = pair_of_envs(rules, by_seat(one), by_seat(two))
    agents = [AGENTS[s] for s in blind]
    calling = 6  # five bids and the call
    enc = state_encoder(rules)
    for k, a in enumerate(actions):
        assert observed(env_one, agents) == observed(env_two, agents), f"a leak before action {k}"
        assert env_one.agent_selection == env_two.agent_selection
        if k >= calling:  # after the call: the two holders know, and the state for critics holds it
            for env, holder in zip((env_one, env_two), holders, strict=True):
                for seat in holders:
                    got = observation(rules).unflatten(env.observe(AGENTS[seat])["observation"])
                    who = "declarer" if seat == next(iter(bids)) else "partner" if seat == holder else "opponent"
                    assert got["role"].tolist() == ROLE[who]
                    # The partner sees himself; the other holder nothing (a self-caller: nothing till it shows).
                    assert got["partner"].tolist() == ([1, 0, 0, 0, 0] if who == "partner" else [0] * 5)
                assert enc.encode(env.game)[enc.slices["partner"]].tolist() == one_hot(holder, 5)
                assert env.state()[enc.slices["partner"]].tolist() == one_hot(holder, 5)
        assert not any(env_one.infos.values()) and not any(env_two.infos.values())  # nothing in the infos either
        assert set(env_one.rewards.values()) == set(env_two.rewards.values()) == {0.0}
        env_one.step(a)
        env_two.step(a)
    assert observed(env_one, agents) == observed(env_two, agents)
    # Now the called card is played: in deal one by its holder, in deal two by the other seat.
    leader = env_one.game.public.turn
    trick = one[before].split()
    for env in (env_one, env_two):
        for k in range(5):
            seat = (leader + k) % 5
            code = trick[seat] if env is env_one else two[before].split()[seat]
            env.step(parse_card(code))
            if code == card:
                break
    for env, holder in zip((env_one, env_two), holders, strict=True):
        assert revealed_partner(env.game.public) == holder
        for seat in blind:
            got = observation(rules).unflatten(env.observe(AGENTS[seat])["observation"])
            assert got["partner"].tolist() == one_hot((holder - seat) % 5, 5)
    assert all(observed(env_one, [a]) != observed(env_two, [a]) for a in agents)


def test_no_leak_reveal_partner_makes_the_partner_public_at_the_call():
    rules = AChiamareRules(reveal_partner=True)
    one, two = WORKED, swap(WORKED, "Ab", "Fb")
    env_one, env_two = pair_of_envs(rules, by_seat(one), by_seat(two))
    for a in (CHIAMO, PASS, PASS, PASS, PASS):
        env_one.step(a)
        env_two.step(a)
    assert observed(env_one, ["player_0", "player_1", "player_4"]) == observed(
        env_two, ["player_0", "player_1", "player_4"]
    )
    env_one.step(CALL + parse_card("Ab"))
    env_two.step(CALL + parse_card("Ab"))
    for seat in (0, 1, 4):  # announced: seat 2 in one deal, seat 3 in the other
        got = [
            observation(rules).unflatten(e.observe(AGENTS[seat])["observation"])["partner"] for e in (env_one, env_two)
        ]
        assert got[0].tolist() == one_hot((2 - seat) % 5, 5) and got[1].tolist() == one_hot((3 - seat) % 5, 5)


def random_pair(rng, rules):
    """A random deal, its auction and call, and a second deal that only some seats can tell from it.

    Half the time the called card moves from the partner to a seat that is neither the caller nor
    the partner (the partner changes); otherwise two random cards of two random seats are exchanged.
    Returns both deals, the dealer, the auction and call actions, and the seats that hold the same
    cards in both deals.
    """
    state = new_game(rules, rng)
    hands = [cards_of(h) for h in state.hands]
    dealer = state.public.dealer
    prefix = []
    while state.public.status == PLAYING and state.public.table.phase != PLAY:
        legal = legal_actions(state)
        if state.public.table.phase == AUCTION:
            weights = {PASS: 5, CHIAMO: 4, SOLA: 1}
            move = rng.choices(legal, [weights[a] for a in legal])[0]
        else:
            move = rng.choice(legal)
        prefix.append(move)
        state = apply(state, move)
    x = state.public.table.extra
    partner = partner_of(state)
    if rng.random() < 0.5 and partner >= 0 and partner != x.declarer:
        a, b = partner, rng.choice([s for s in range(5) if s not in (x.declarer, partner)])
        card_a = x.called
    else:
        a, b = rng.sample(range(5), 2)
        card_a = rng.choice(hands[a])
    card_b = rng.choice(hands[b])
    other = [list(h) for h in hands]
    other[a] = [card_b if c == card_a else c for c in other[a]]
    other[b] = [card_a if c == card_b else c for c in other[b]]
    return hands, other, dealer, prefix, [s for s in range(5) if s not in (a, b)]


def test_no_leak_over_random_pairs_of_deals_that_some_seats_cannot_tell_apart():
    """Same public actions, hidden cards exchanged: every seat that holds the same cards sees the same, every step."""
    rng = random.Random(20240611)
    compared = partner_moved = 0
    for _ in range(120):
        rules = AChiamareRules(
            auction=rng.choice(["ascending", "first_taker"]),
            call_rule=rng.choice(["any", "highest_missing"]),
            allow_self_call=rng.random() < 0.3,
            first_lead=rng.choice(["seed", "forehand", "declarer"]),
            signals=rng.choice(["seed", "full", "none"]),
        )
        one, two, dealer, prefix, blind = random_pair(rng, rules)
        env_one, env_two = pair_of_envs(rules, one, two, dealer)
        agents = [AGENTS[s] for s in blind]
        moves = iter(prefix)
        while env_one.game.public.status == PLAYING:
            assert observed(env_one, agents) == observed(env_two, agents)
            compared += 1
            both = legal_actions_mask(env_one.game) & legal_actions_mask(env_two.game)
            move = next(moves, None)
            if move is None:  # past the auction and the call: any move legal in both deals
                move = rng.choice(cards_of(both)) if both else None
            if move is None or not both >> move & 1:
                break  # the deals part: a hidden card is about to show
            env_one.step(move)
            env_two.step(move)
            if partner_of(env_one.game) != partner_of(env_two.game) and env_one.game.public.table.phase == PLAY:
                partner_moved += 1
        else:
            assert observed(env_one, agents) == observed(env_two, agents)  # the hand ended alike (all passed)
    assert compared > 2000 and partner_moved > 200  # the test does compare, and often with the partner moved


def test_each_seat_knows_the_partner_as_section_6_says_over_random_play():
    """The role and partner pieces: the caller knows only himself, the partner himself, all once the card is played."""
    rng = random.Random(5)
    for seed in range(40):
        rules = AChiamareRules(reveal_partner=seed % 4 == 0, allow_self_call=seed % 3 == 0)
        obs = observation(rules)
        state = new_game(rules, seed)
        while state.public.status == PLAYING:
            x = state.public.table.extra
            revealed = revealed_partner(state.public)
            if x.contract == CHIAMO and x.called >= 0:
                played = state.public.all_played >> x.called & 1
                assert (revealed >= 0) == bool(played or rules.reveal_partner)
                assert revealed in (-1, partner_of(state))
            for seat in range(5):
                me = view(state, seat)
                assert me.hand == state.hands[seat] and me.private == 0  # nothing beyond its own cards
                got = obs.unflatten(obs.encode(me))
                partner = x.contract == CHIAMO and x.called >= 0 and seat != x.declarer
                partner = partner and state.dealt[seat] >> x.called & 1
                if x.declarer < 0 or (x.contract == CHIAMO and x.called < 0 and seat != x.declarer):
                    role = "unknown"
                else:
                    role = "declarer" if seat == x.declarer else "partner" if partner else "opponent"
                assert got["role"].tolist() == ROLE[role]
                if partner:
                    assert got["partner"].tolist() == [1, 0, 0, 0, 0]  # himself
                elif revealed >= 0:
                    assert got["partner"].tolist() == one_hot((revealed - seat) % 5, 5)
                else:
                    assert not got["partner"].any()
            state = apply(state, rng.choice(legal_actions(state)))


# ------------------------------------------------------------------ invariants of random play


SWITCHES = st.fixed_dictionaries(
    {
        "auction": st.sampled_from(["ascending", "first_taker"]),
        "call_rule": st.sampled_from(["any", "highest_missing"]),
        "allow_self_call": st.booleans(),
        "reveal_partner": st.booleans(),
        "first_lead": st.sampled_from(["seed", "forehand", "declarer"]),
        "multipliers": st.sampled_from([None, {"chiamo": 2}, {"sola": 3}, {"chiamo": 1, "sola": 1}]),
        "cappotto_rule": st.sampled_from(["zero_points", "zero_thirds", "all_tricks"]),
        "signals": st.sampled_from(["seed", "full", "none"]),
        "episode": st.sampled_from(["hand", "match"]),
        "match_end": st.sampled_from(["rounds", "target"]),
        "rounds": st.integers(1, 2),
        "target_score": st.sampled_from([3, 8]),
    }
)


def expected_stakes(rules, state, offender=None):
    """The stakes of a finished hand, from the seed's table (FAMILY.md section 5), worked out afresh."""
    p = state.public
    x = p.table.extra
    if x.declarer < 0 and offender is None:
        return (0,) * 5  # every player passed
    if offender is not None and x.called < 0 and x.contract != SOLA:
        return tuple(-8 if s == offender else 2 for s in range(5))  # before the call: 2 to each other
    side = {x.declarer}
    if x.contract == CHIAMO:
        side.add(next(s for s in range(5) if state.dealt[s] >> x.called & 1))  # the holder at the deal
    alone = len(side) == 1  # a sola or a self-call
    if offender is not None:
        won, cappotto = offender not in side, True
    else:
        ours = sum(p.thirds[s] for s in side)
        won = ours >= 18
        lost_thirds = 35 - ours if won else ours
        lost_tricks = sum((trick_winner(leader, cards, 5) in side) != won for leader, cards, _ in p.tricks())
        cappotto = {"zero_points": lost_thirds < 3, "zero_thirds": lost_thirds == 0, "all_tricks": lost_tricks == 0}
        cappotto = cappotto[rules.cappotto_rule]
    m = dict(rules.multipliers or ()).get("sola" if alone else "chiamo", 2 if alone else 1)
    unit = m * (2 if cappotto else 1) * (1 if won else -1)
    if alone:
        return tuple(4 * unit if s in side else -unit for s in range(5))
    return tuple(2 * unit if s == x.declarer else unit if s in side else -unit for s in range(5))


@settings(max_examples=200, deadline=None)
@given(switches=SWITCHES, seed=st.integers(0, 2**32 - 1))
def test_invariants_of_random_play(switches, seed):
    rules = make_effective(AChiamareRules, **switches)  # a switch with no effect left at its default
    rng = random.Random(seed)
    state = new_game(rules, rng)
    totals = [0] * 5
    for hand in range(12):
        p = state.public
        assert [h.bit_count() for h in state.hands] == [8] * 5 and p.table.phase == AUCTION
        assert p.turn == (p.dealer + 1) % 5 and p.hand_number == hand
        offender = None
        for _ in range(5 + 1 + 40):  # the bids, the call, the cards: the hand ends within these
            if state.public.status != PLAYING:
                break
            legal = legal_actions(state)
            assert legal and legal == cards_of(legal_actions_mask(state))
            seen = state.public.all_played
            for h in state.hands:  # every card once: in one hand or played
                assert not h & seen
                seen |= h
            assert seen == FULL
            if rng.random() < 0.01:
                offender = state.public.turn
                state = renuncio(state)
                break
            state = apply(state, rng.choice(legal))
        p = state.public
        assert p.status != PLAYING and p.turn == -1
        assert sum(stakes(state)) == 0 and stakes(state) == expected_stakes(rules, state, offender)
        if offender is None and p.table.extra.declarer >= 0:
            assert sum(p.thirds) == 35 and sum(p.result.card_thirds) == 35 and not any(state.hands)
            assert p.result.points == tuple(t // 3 for t in p.result.card_thirds) and sum(p.result.points) == 11
        totals = [t + s for t, s in zip(totals, stakes(state), strict=True)]
        assert list(p.match_score) == (totals if rules.episode == "match" else list(stakes(state)))
        if p.status == GAME_OVER:
            break
        state = next_hand(state, rng)
    p = state.public
    if rules.episode == "hand" or rules.match_end == "rounds":
        assert p.status == GAME_OVER
        assert p.hand_number == (0 if rules.episode == "hand" else 5 * rules.rounds - 1)
    if p.status == GAME_OVER:
        returns = rules.game.returns(p)
        assert sum(returns) == 0 and returns == tuple(map(float, p.match_score))
        with pytest.raises(GameOverError):
            apply(state, 0)
