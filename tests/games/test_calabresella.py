"""Calabresella (FAMILY.md section 4), rule by rule, with hand-built deals; invariants of random play.

The deals are written trick by trick: ``"3d Ad 5d"`` is one trick, the cards of seat 0, 1, 2
in that order (``play_tricks`` plays them from the trick's leader round). A trick list gives
the hands as they are after the exchange; ``dealt`` undoes the exchange (the called card, the
monte, the returned card, the discards) to give the hands as dealt. Every number asserted is
worked out by hand in the comments: card thirds are asso 3; 3, 2, re, cavallo, fante 1; 4 to
7 nothing; the last trick 3 more; 35 in a hand. Seat 0 is the forehand (dealer 2) unless said.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import SUITS_DEAL, by_seat, play_tricks
from tressette_env import calabresella_v0
from tressette_env.engine import (
    BUSSO,
    GAME_OVER,
    HAND_OVER,
    PLAY,
    PLAYING,
    STRISCIO,
    THIRDS,
    VOLO,
    GameOverError,
    IllegalActionError,
    apply,
    cards_of,
    current_agent,
    legal_actions,
    new_game,
    next_hand,
    parse_card,
    parse_cards,
    renuncio,
    trick_winner,
    view,
)
from tressette_env.engine.actions import CALL, CHIAMO, DIVIDETE, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from tressette_env.engine.switches import make_effective
from tressette_env.games.calabresella import (
    AUCTION,
    CALL_PHASE,
    CHOOSE,
    DISCARD,
    IN_MONTE,
    RETURN,
    SPLIT,
    TAKE,
    CalabresellaRules,
    make_rules,
)

FULL = (1 << 40) - 1
ALL_CONTRACTS = ("chiamo", "solo", "solissimo", "dividete", "scegliete")


def card(code):
    return parse_card(code)


def cards(text):
    """Card ids, lowest first, of a text of card codes."""
    return cards_of(parse_cards(text))


def dealt(tricks, monte="", discards="", called="", returned="", giver=None, soloist=0):
    """The hands as dealt, by seat, when the exchange leaves the hands that play ``tricks``.

    The soloist's hand after the exchange is the dealt one, with the called card and the
    monte, less the returned card and the discards; the giver's, less the called card and
    with the returned one.
    """
    hands = [sum(1 << c for c in h) for h in by_seat(tricks)]
    m, d, c, r = (parse_cards(text) for text in (monte, discards, called, returned))
    hands[soloist] = (hands[soloist] | d | r) & ~m & ~c
    if giver is not None:
        hands[giver] = hands[giver] & ~r | c
    return [cards_of(h) for h in hands]


def bid(state, *bids):
    """The auction's bids in turn from the seat to speak."""
    for b in bids:
        assert state.public.table.phase == AUCTION
        state = apply(state, b)
    return state


def run(state, actions):
    for a in actions:
        state = apply(state, a)
    return state


def to_play(state, rng=None):
    """Take the first legal action (or a random one) until the card play starts."""
    while state.public.status == PLAYING and state.public.table.phase != PLAY:
        legal = legal_actions(state)
        state = apply(state, rng.choice(legal) if rng else legal[0])
    return state


def stakes(state):
    return state.public.table.extra.stakes


# ------------------------------------------------------------------ the hand-built deals

# Chiamo, soloist seat 0 with 18 thirds (the module docstring's first worked example). Seat 0
# bids chiamo, calls the 3d (held by seat 1, who hands it over face up), takes the monte
# Fd 4c 2s 3c, returns the Fd face up to seat 1 and discards the four 4s (no third; to the
# last trick's side). Each suit is played in three tricks, every seat following suit.
CHIAMO_TRICKS = [
    "3d Ad 5d",  # p0 (the forehand) leads, the 3 takes: 1 + 3 + 0 = 4 to the soloist
    "2d Rd 6d",  # 1 + 1 + 0 = 2 (6)
    "Cd Fd 7d",  # 1 + 1 + 0 = 2 (8)
    "3c Ac 5c",  # 4 (12)
    "2c Rc 6c",  # 2 (14)
    "Cc Fc 7c",  # 2 (16)
    "2s Rs 6s",  # p0 leads 2s: 1 + 1 + 0 = 2 (18)
    "5s 3s As",  # p0 leads 5s, p1's 3 takes: 0 + 1 + 3 = 4 to the coalition
    "7s Fs Cs",  # p1 leads Fs, p2's cavallo takes: 0 + 1 + 1 = 2 (6)
    "5b 3b Ab",  # p2 leads Ab, p1's 3 takes: 0 + 1 + 3 = 4 (10)
    "6b 2b Rb",  # p1 leads 2b: 0 + 1 + 1 = 2 (12)
    "7b Fb Cb",  # p1 leads Fb, p2's cavallo takes: 0 + 1 + 1 + 3 (the last trick) = 5 (17)
]
CHIAMO_MONTE = "Fd 4c 2s 3c"
CHIAMO_DISCARDS = "4d 4c 4s 4b"
CHIAMO_DEAL = {
    "hands": dealt(CHIAMO_TRICKS, CHIAMO_MONTE, CHIAMO_DISCARDS, called="3d", returned="Fd", giver=1),
    "monte": cards(CHIAMO_MONTE),
    "dealer": 2,
}
CHIAMO_EXCHANGE = [CALL + card("3d"), GIVE + card("Fd")] + [GIVE + c for c in cards(CHIAMO_DISCARDS)]

# Solo, the coalition takes 33 thirds and the soloist 2 (the docstring's second worked example).
# Seat 0 takes the monte Rd 4c 5s 6b and discards the four assi (12 thirds): the coalition takes
# the last trick, so they are the coalition's.
SOLO_CAPPOTTO_TRICKS = [
    "Rd Cd 6d",  # p0 (the soloist leads after solo) takes: 1 + 1 + 0 = 2 to the soloist
    "4d 3d 2d",  # p0 leads 4d, p1's 3 takes: 0 + 1 + 1 = 2 to the coalition
    "5d Fd 7d",  # p1 leads Fd: 1 (3)
    "4c 3c 2c",  # 2 (5)
    "5c Rc Cc",  # the re takes: 2 (7)
    "6c Fc 7c",  # 1 (8)
    "4s 3s 2s",  # 2 (10)
    "5s Rs Cs",  # 2 (12)
    "6s Fs 7s",  # 1 (13)
    "4b 3b 2b",  # 2 (15)
    "5b Rb Cb",  # 2 (17)
    "6b Fb 7b",  # 1 + 3 (the last trick) = 4 (21); the discarded assi, 12: 33
]
ASSI = "Ad Ac As Ab"
SOLO_CAPPOTTO_MONTE = "Rd 4c 5s 6b"
# The same but denari: the soloist takes one trick and no third; the coalition all 35.
SOLO_ZERO_TRICKS = (
    [
        "7d 6d 5d",  # p0 leads 7d and takes: 0 thirds, one trick
        "4d 3d 2d",  # p0 leads 4d, p1's 3 takes: 2 to the coalition
        "Fd Rd Cd",  # p1 leads Rd: 3 (5)
    ]
    + SOLO_CAPPOTTO_TRICKS[3:]
)  # 5 + 15 + 3 = 23, with the assi 35
SOLO_ZERO_MONTE = "7d 4c 5s 6b"
# Solo, the soloist takes 23 thirds with the last trick and the assi he discarded (the
# difference scoring's worked example: 2 * 23 - 35 = 11).
SOLO_23_TRICKS = [
    "3d Cd Fd",  # p0 leads, the 3 takes: 1 + 1 + 1 = 3 to the soloist
    "2d 7d 6d",  # 1 (4)
    "Rd 5d 4d",  # 1 (5)
    "3c 7c 4c",  # 1 (6)
    "Rs 7s 6s",  # 1 (7)
    "4s 3s 2s",  # p0 leads 4s, p1's 3 takes: 0 + 1 + 1 = 2 to the coalition
    "5c 2c Rc",  # p1 leads 2c: 2 (4)
    "6c Cc Fc",  # p1 leads Cc, the cavallo over the fante: 2 (6)
    "5s Cs Fs",  # 2 (8)
    "4b 3b 2b",  # 2 (10)
    "5b Rb Cb",  # 2 (12)
    "Fb 7b 6b",  # p1 leads 7b, p0's fante takes: 1 + 3 = 4 (11); the assi, 12: 23
]
SOLO_23_MONTE = "3d 3c Rs Fb"
SOLO_EXCHANGE = [GIVE + c for c in cards(ASSI)]


def solo_deal(tricks, monte):
    return {"hands": dealt(tricks, monte, ASSI), "monte": cards(monte), "dealer": 2}


def untouched_deal(tricks):
    """The deal that plays ``tricks`` with the four assi left in the monte (solissimo)."""
    return {"hands": by_seat(tricks), "monte": cards(ASSI), "dealer": 2}


SOLO_CAPPOTTO_DEAL = solo_deal(SOLO_CAPPOTTO_TRICKS, SOLO_CAPPOTTO_MONTE)
SOLO_ZERO_DEAL = solo_deal(SOLO_ZERO_TRICKS, SOLO_ZERO_MONTE)
SOLO_23_DEAL = solo_deal(SOLO_23_TRICKS, SOLO_23_MONTE)

# Four players, all play (dealer 3): each seat holds a whole suit. Chiamo: seat 0 calls the 4c
# from seat 1 and returns him the 4d; he leads his denari and the coalition throws.
FOUR_CHIAMO_TRICKS = [
    "3d 4d 3s 3b",  # p0 leads: 1 + 0 + 1 + 1 = 3 to the soloist
    "2d 3c 2s 2b",  # p1 has no denari left: 4 (7)
    "Ad 2c As Ab",  # 3 + 1 + 3 + 3 = 10 (17)
    "Rd Ac Rs Rb",  # 1 + 3 + 1 + 1 = 6 (23)
    "Cd Rc Cs Cb",  # 4 (27)
    "Fd Cc Fs Fb",  # 4 (31)
    "7d Fc 7s 7b",  # 1 (32)
    "6d 7c 6s 6b",  # 0
    "5d 6c 5s 5b",  # 0
    "4c 5c 4s 4b",  # p0 leads the 4c, p1's 5c takes: 0 + 3 (the last trick) = 3 to the coalition
]
FOUR_SWEEP_TRICKS = [f"{r}d {r}c {r}s {r}b" for r in "3 2 A R C F 7 6 5 4".split()]  # p0 takes all 35
FOUR_DEAL = {"hands": SUITS_DEAL, "dealer": 3}


def test_the_hand_built_deals_are_whole_decks():
    for deal in (CHIAMO_DEAL, SOLO_CAPPOTTO_DEAL, SOLO_ZERO_DEAL, SOLO_23_DEAL, untouched_deal(SOLO_23_TRICKS)):
        held = [c for hand in deal["hands"] for c in hand] + deal["monte"]
        assert sorted(held) == list(range(40)) and [len(h) for h in deal["hands"]] == [12, 12, 12]
    # The chiamo deal written out: seat 0 lacks the 3d and the Fd he returns is in the monte.
    assert CHIAMO_DEAL["hands"] == [
        cards("2d Cd 2c Cc 5s 7s 5b 6b 7b 4d 4s 4b"),
        cards("Ad Rd 3d Ac Rc Fc Rs 3s Fs 3b 2b Fb"),
        cards("5d 6d 7d 5c 6c 7c As 6s Cs Ab Rb Cb"),
    ]
    for tricks in (FOUR_CHIAMO_TRICKS, FOUR_SWEEP_TRICKS):
        assert sorted(c for h in by_seat(tricks) for c in h) == list(range(40))


def rotated(tricks, k):
    """The same tricks with every seat's cards moved ``k`` seats on (seat s's to seat s + k)."""
    out = []
    for trick in tricks:
        codes = trick.split()
        n = len(codes)
        out.append(" ".join(codes[(s - k) % n] for s in range(n)))
    return out


def check_stakes(state, expected):
    """The hand's stakes per agent, zero-sum, and the rewards of a one-hand episode."""
    p = state.public
    assert p.status == GAME_OVER and stakes(state) == expected and sum(expected) == 0
    if p.rules.episode == "hand":
        assert p.rules.game.returns(p) == tuple(float(s) for s in expected)


def called(rules, deal=CHIAMO_DEAL, code="3d"):
    """Seat 0 bids chiamo, the others pass, and he calls ``code``."""
    return apply(bid(new_game(rules, seed=0, **deal), CHIAMO, PASS, PASS), CALL + card(code))


def chiamo_hand(rules=None, deal=CHIAMO_DEAL):
    state = new_game(rules or CalabresellaRules(), seed=0, **deal)
    return play_tricks(run(bid(state, CHIAMO, PASS, PASS), CHIAMO_EXCHANGE), CHIAMO_TRICKS)


def solo_hand(rules, deal, tricks):
    return play_tricks(run(bid(new_game(rules, seed=0, **deal), SOLO, PASS, PASS), SOLO_EXCHANGE), tricks)


def solissimo_hand(rules, tricks):
    return play_tricks(bid(new_game(rules, seed=0, **untouched_deal(tricks)), SOLISSIMO, PASS, PASS), tricks)


# ------------------------------------------------------------------ the deal


def test_three_players_twelve_cards_each_four_face_down_the_forehand_speaks_first():
    for seed in range(6):
        state = new_game(CalabresellaRules(), seed)
        p = state.public
        x = p.table.extra
        monte = sum(1 << c for c in state.hidden.face_down)
        assert [h.bit_count() for h in state.hands] == [12, 12, 12] and len(state.hidden.face_down) == 4
        assert sum(state.hands) | monte == FULL and not any(h & monte for h in state.hands)
        assert x.held == (12, 12, 12) and x.face_down == 4 and x.bids == (0, 0, 0) and x.soloist == -1
        assert p.table.seats == 3 and p.table.tricks == 12 and p.table.phase == AUCTION
        assert p.turn == p.first_leader == (p.dealer + 1) % 3  # the forehand, the seat after the dealer
        assert legal_actions(state) == [PASS, CHIAMO, SOLO, SOLISSIMO]
        assert [view(state, seat).private for seat in range(3)] == [0, 0, 0]  # nobody has seen the monte
        assert all(view(state, seat).unseen & monte == monte for seat in range(3))


def test_four_players_all_play_ten_cards_each_and_no_monte():
    for seed in range(4):
        state = new_game(CalabresellaRules(players=4), seed)
        p = state.public
        assert [h.bit_count() for h in state.hands] == [10] * 4 and sum(state.hands) == FULL
        assert state.hidden.face_down == () and p.table.extra.face_down == 0 and p.table.tricks == 10
        assert p.table.controllers == (0, 1, 2, 3) and p.turn == (p.dealer + 1) % 4
        assert legal_actions(state) == [PASS, CHIAMO, SOLO]  # no monte: chiamo and solo only


def test_with_the_dealer_sitting_out_the_other_three_play_from_the_forehand():
    rules = CalabresellaRules(players=4, four_player="dealer_sits_out")
    state = new_game(rules, seed=0, dealer=1, hands=CHIAMO_DEAL["hands"], monte=CHIAMO_DEAL["monte"])
    p = state.public
    t = p.table
    # Players 2, 3, 0 at seats 0, 1, 2 (the forehand first); player 1 deals and has no seat.
    assert t.seats == 3 and t.controllers == (2, 3, 0) and t.seat_of == (2, -1, 0, 1)
    assert t.extra.sitting_out == 1 and p.dealer == 2 and p.turn == 0
    assert [h.bit_count() for h in state.hands] == [12, 12, 12] and len(state.hidden.face_down) == 4
    assert current_agent(state) == 2  # the forehand after player 1
    assert legal_actions(state) == [PASS, CHIAMO, SOLO, SOLISSIMO]
    for seed in range(3):  # a drawn dealer: the same shape
        t = new_game(rules, seed).public.table
        assert t.seat_of[t.extra.sitting_out] == -1 and sorted(t.controllers + (t.extra.sitting_out,)) == [0, 1, 2, 3]


def test_a_chosen_deal_keeps_the_monte_in_its_order_and_deals_the_rest():
    monte = [card("Rb"), card("3d"), card("Ac"), card("4s")]
    for seed in range(3):
        state = new_game(CalabresellaRules(), seed, monte=monte)
        assert state.hidden.face_down == tuple(monte) and sum(state.hands) == FULL & ~parse_cards("Rb 3d Ac 4s")
        state = new_game(CalabresellaRules(), seed, hands=CHIAMO_DEAL["hands"], dealer=2)
        assert sorted(state.hidden.face_down) == cards(CHIAMO_MONTE)  # the four cards no hand holds


# ------------------------------------------------------------------ the auction


def test_the_ascending_auction_one_turn_each_every_bid_above_the_standing_one():
    state = new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL)
    assert state.public.turn == 0 and legal_actions(state) == [PASS, CHIAMO, SOLO, SOLISSIMO]
    state = apply(state, CHIAMO)
    assert state.public.turn == 1 and legal_actions(state) == [PASS, SOLO, SOLISSIMO]  # no second chiamo
    with pytest.raises(IllegalActionError, match="in the auction the legal actions"):
        apply(state, CHIAMO)
    state = apply(state, SOLO)
    assert state.public.turn == 2 and legal_actions(state) == [PASS, SOLISSIMO]
    state = apply(state, PASS)
    # Every seat has spoken once: seat 1's solo, the highest, wins; seat 0 does not speak again.
    x = state.public.table.extra
    assert x.bids == (CHIAMO, SOLO, PASS) and x.contract == SOLO and x.soloist == 1
    assert state.public.table.sides == (1, 0, 1) and state.public.table.phase == DISCARD
    assert state.public.turn == 1 and state.public.history == (CHIAMO, SOLO, PASS)  # the bids are public
    # Solissimo leaves nothing to bid but a pass.
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), PASS, SOLISSIMO)
    assert legal_actions(state) == [PASS]
    state = apply(state, PASS)
    assert state.public.table.extra.soloist == 1 and state.public.table.extra.contract == SOLISSIMO


@pytest.mark.parametrize(
    "contracts, legal",
    [
        (None, [PASS, CHIAMO, SOLO, SOLISSIMO]),
        (ALL_CONTRACTS, [PASS, CHIAMO, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE]),
        (("chiamo", "solo"), [PASS, CHIAMO, SOLO]),
        (("solo", "scegliete"), [PASS, SOLO, SCEGLIETE]),
        (("chiamo",), [PASS, CHIAMO]),
    ],
)
def test_the_contracts_switch_restricts_the_bids(contracts, legal):
    state = new_game(CalabresellaRules(contracts=contracts), seed=0, **CHIAMO_DEAL)
    assert legal_actions(state) == legal
    state = apply(state, legal[1])  # the lowest contract: the next seat may bid the others above it
    assert legal_actions(state) == [PASS] + legal[2:]
    for action in set(range(PASS, SCEGLIETE + 1)) - set(legal):
        with pytest.raises(IllegalActionError):
            apply(new_game(CalabresellaRules(contracts=contracts), seed=0, **CHIAMO_DEAL), action)


def test_first_taker_the_first_player_who_bids_takes_the_contract():
    rules = CalabresellaRules(auction="first_taker")
    state = bid(new_game(rules, seed=0, **CHIAMO_DEAL), PASS, CHIAMO)
    x = state.public.table.extra
    # Seat 2 never speaks: seat 1 plays chiamo (no overcall), and calls.
    assert x.bids == (PASS, CHIAMO, 0) and x.contract == CHIAMO and x.soloist == 1
    assert state.public.table.phase == CALL_PHASE and state.public.turn == 1
    state = apply(new_game(rules, seed=0, **CHIAMO_DEAL), SOLO)  # the forehand's bid ends it at once
    assert state.public.table.extra.bids == (SOLO, 0, 0) and state.public.table.phase == DISCARD
    state = bid(new_game(rules, seed=0, **CHIAMO_DEAL), PASS, PASS)
    assert legal_actions(state) == [PASS, CHIAMO, SOLO, SOLISSIMO]  # the last may still take any
    assert apply(state, PASS).public.status == GAME_OVER  # all passed: void


# ------------------------------------------------------------------ chiamo


def test_call_rule_any_names_any_card_the_caller_lacks():
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS)
    p = state.public
    assert p.table.phase == CALL_PHASE and p.turn == 0 and p.table.extra.contract == CHIAMO
    assert legal_actions(state) == [CALL + c for c in cards_of(FULL & ~state.hands[0])]  # his 28 missing cards
    with pytest.raises(IllegalActionError):
        apply(state, CALL + card("2d"))  # a card of his own


def test_call_rule_highest_missing_names_a_card_of_the_highest_rank_he_lacks():
    rules = CalabresellaRules(call_rule="highest_missing")
    state = bid(new_game(rules, seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS)
    assert legal_actions(state) == [CALL + c for c in cards("3d 3c 3s 3b")]  # he holds no 3
    # A caller holding every 3 and the 2d 2c 2s names the 2b; holding every 3 and 2, an asso he lacks.
    for held, callable_ in (("3d 3c 3s 3b 2d 2c 2s", "2b"), ("3d 3c 3s 3b 2d 2c 2s 2b Ad Ab", "Ac As")):
        hand = cards(held)
        rest = [c for c in range(40) if c not in hand]
        hands = [
            hand + rest[: 12 - len(hand)],
            rest[12 - len(hand) : 24 - len(hand)],
            rest[24 - len(hand) : 36 - len(hand)],
        ]
        state = bid(new_game(rules, seed=0, hands=hands, dealer=2), CHIAMO, PASS, PASS)
        assert legal_actions(state) == [CALL + c for c in cards(callable_)]


def test_the_called_card_is_handed_over_face_up_the_monte_shown_and_taken_a_card_returned_face_up():
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS)
    state = apply(state, CALL + card("3d"))
    p = state.public
    x = p.table.extra
    # Seat 1 held the 3d: it lies face up in seat 0's hand; the monte is turned up for all and
    # taken: 12 + 1 + 4 = 17 cards, seat 1 11.
    assert x.called == card("3d") and x.called_from == 1 and p.exposed_by(0) == parse_cards("3d")
    assert state.hands[0] == parse_cards("2d Cd 2c Cc 5s 7s 5b 6b 7b 4d 4s 4b 3d") | parse_cards(CHIAMO_MONTE)
    assert x.held == (17, 11, 12) and [h.bit_count() for h in state.hands] == [17, 11, 12]
    assert state.hidden.face_down == () and x.face_down == 0
    for seat in range(3):  # the monte shown: every seat's view has it
        assert view(state, seat).public.table.extra.monte_shown == parse_cards(CHIAMO_MONTE)
    assert p.history == (CHIAMO, PASS, PASS, CALL + card("3d"))
    # He returns a card face up to the giver: any of his but the called card (the Fd, from the monte, too).
    assert p.table.phase == RETURN and p.turn == 0
    assert legal_actions(state) == [GIVE + c for c in cards_of(state.hands[0] & ~parse_cards("3d"))]
    assert GIVE + card("Fd") in legal_actions(state)
    with pytest.raises(IllegalActionError, match="the soloist returns a card"):
        apply(state, GIVE + card("3d"))
    state = apply(state, GIVE + card("Fd"))
    p = state.public
    assert p.table.extra.returned == card("Fd") and p.exposed_by(1) == parse_cards("Fd")
    assert p.exposed_by(0) == parse_cards("3d") and p.table.extra.held == (16, 12, 12)
    assert p.history[-1] == GIVE + card("Fd")  # public
    # Then four discards face down: any of his 16 cards, the called one included.
    assert p.table.phase == DISCARD and legal_actions(state) == [GIVE + c for c in cards_of(state.hands[0])]
    assert GIVE + card("3d") in legal_actions(state)
    for k, c in enumerate(cards(CHIAMO_DISCARDS)):
        assert state.public.table.phase == DISCARD and state.public.table.extra.face_down == k
        state = apply(state, GIVE + c)
    p = state.public
    assert p.table.phase == PLAY and p.turn == p.leader == 0  # the forehand leads after chiamo
    assert p.table.extra.held == (12, 12, 12) and p.table.extra.face_down == 4
    assert state.hidden.face_down == tuple(cards(CHIAMO_DISCARDS))
    assert p.history == (CHIAMO, PASS, PASS, CALL + card("3d"), GIVE + card("Fd"))  # not the discards
    # The discards: seat 0 alone knows them.
    assert view(state, 0).private == parse_cards(CHIAMO_DISCARDS)
    assert view(state, 1).private == view(state, 2).private == 0
    assert view(state, 1).unseen & parse_cards(CHIAMO_DISCARDS) == parse_cards(CHIAMO_DISCARDS)
    assert not view(state, 0).unseen & parse_cards(CHIAMO_DISCARDS)
    assert state.hands[1] & parse_cards("Fd") and not state.hands[1] & parse_cards("3d")


def test_the_discards_stay_out_of_the_other_seats_views():
    state = run(bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS), CHIAMO_EXCHANGE[:2])
    one = run(state, [GIVE + c for c in cards("4d 4c 4s 4b")])
    other = run(state, [GIVE + c for c in cards("4d 4c 4s 7b")])
    assert one.hidden != other.hidden and one.public == other.public
    for seat in (1, 2):
        assert view(one, seat) == view(other, seat)
    assert view(one, 0) != view(other, 0)


def test_a_called_card_in_the_monte_is_handed_over_by_nobody_and_nothing_is_returned():
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS)
    state = apply(state, CALL + card("3c"))  # the 3c lies in the monte
    p = state.public
    x = p.table.extra
    assert x.called == card("3c") and x.called_from == IN_MONTE and p.table.exposed == 0
    # He takes the monte: 12 + 4 = 16; no card to return: straight to the discards.
    assert x.held == (16, 12, 12) and p.table.phase == DISCARD and x.returned == -1
    assert state.hands[1] & parse_cards("3d")  # seat 1 keeps his 3
    state = run(state, [GIVE + c for c in cards(CHIAMO_DISCARDS)])
    assert state.public.table.phase == PLAY and state.public.table.extra.held == (12, 12, 12)


def test_show_monte_on_call_false_keeps_the_monte_from_the_other_seats():
    rules = CalabresellaRules(show_monte_on_call=False)
    state = called(rules)
    assert state.public.table.extra.monte_shown == 0 and state.public.table.extra.held == (17, 11, 12)
    assert view(state, 1).private == view(state, 2).private == 0
    assert view(state, 1).unseen & parse_cards(CHIAMO_MONTE) == parse_cards(CHIAMO_MONTE)
    # Two deals with different monti look alike to seats 1 and 2 once the monte is taken.
    hands = [list(h) for h in CHIAMO_DEAL["hands"]]
    hands[0].remove(card("4b"))
    hands[0].append(card("3c"))
    monte = cards("Fd 4c 2s 4b")
    other = called(rules, {"hands": hands, "monte": monte, "dealer": 2})
    assert other.public == state.public and view(other, 1) == view(state, 1)
    shown = called(CalabresellaRules(), {"hands": hands, "monte": monte, "dealer": 2})
    assert shown.public.table.extra.monte_shown == parse_cards("Fd 4c 2s 4b")


def test_partial_exchange_the_caller_returns_then_takes_up_to_four_and_discards_as_many():
    rules = CalabresellaRules(exchange="partial")
    state = called(rules)
    p = state.public
    # He holds 13 and returns before he takes: the monte's Fd is not his to return.
    assert p.table.phase == RETURN and p.table.extra.held == (13, 11, 12)
    assert p.table.extra.monte_shown == parse_cards(CHIAMO_MONTE) and view(state, 0).private == parse_cards(
        CHIAMO_MONTE
    )
    assert GIVE + card("Fd") not in legal_actions(state) and GIVE + card("3d") not in legal_actions(state)
    state = apply(state, GIVE + card("7b"))
    assert state.public.table.phase == TAKE and state.public.table.extra.held == (12, 12, 12)
    assert legal_actions(state) == [CALL + c for c in cards(CHIAMO_MONTE)] + [PASS]
    state = run(state, [CALL + card("Fd"), CALL + card("3c")])
    assert state.public.table.extra.taken == 2 and state.public.table.extra.held == (14, 12, 12)
    assert legal_actions(state) == [CALL + c for c in cards("4c 2s")] + [PASS]
    assert state.public.history[-2:] == (CALL + card("Fd"), CALL + card("3c"))  # the monte is shown: public
    state = apply(state, PASS)
    assert state.public.table.phase == DISCARD and state.public.table.extra.owed == 2
    state = run(state, [GIVE + card("4d"), GIVE + card("4b")])
    p = state.public
    assert p.table.phase == PLAY and p.table.extra.held == (12, 12, 12) and p.table.extra.face_down == 4
    assert sorted(state.hidden.face_down) == cards("4d 2s 4c 4b")  # the two left and the two discards
    # Taking all four goes straight to four discards; a pass at once plays with the monte untouched.
    taken = run(called(rules), [GIVE + card("7b")] + [CALL + c for c in cards(CHIAMO_MONTE)])
    assert taken.public.table.phase == DISCARD and taken.public.table.extra.owed == 4
    untouched = run(called(rules), [GIVE + card("7b"), PASS])
    assert untouched.public.table.phase == PLAY and untouched.hidden.face_down == tuple(cards(CHIAMO_MONTE))
    # The called card in the monte: nothing to return, he goes to the monte (and may take it).
    in_monte = called(rules, code="3c")
    assert in_monte.public.table.phase == TAKE and in_monte.public.table.extra.called_from == IN_MONTE


def test_partial_exchange_without_the_monte_shown_keeps_the_takes_face_down():
    rules = CalabresellaRules(exchange="partial", show_monte_on_call=False)
    state = called(rules)
    state = run(state, [GIVE + card("7b"), CALL + card("Fd")])
    assert state.public.table.extra.monte_shown == 0 and state.public.history[-1] == GIVE + card("7b")
    assert view(state, 0).private == parse_cards("4c 2s 3c") and view(state, 1).private == 0
    # Solo, partial: he looks at the monte, takes what he likes, unseen by the others.
    solo = bid(new_game(CalabresellaRules(exchange="partial"), seed=0, **SOLO_23_DEAL), SOLO, PASS, PASS)
    assert solo.public.table.phase == TAKE and view(solo, 0).private == parse_cards(SOLO_23_MONTE)
    assert solo.public.table.extra.monte_shown == 0 and view(solo, 1).private == 0
    solo = run(solo, [CALL + card("3d"), PASS, GIVE + card("Ad")])
    assert solo.public.table.phase == PLAY and solo.public.history == (SOLO, PASS, PASS)
    assert view(solo, 0).private == parse_cards("3c Rs Fb Ad")
    # The card he took from the monte, once played, is no longer a face-down card he knows.
    solo = apply(solo, card("3d"))
    assert view(solo, 0).private == parse_cards("3c Rs Fb Ad")


# ------------------------------------------------------------------ solo, solissimo, dividete, scegliete


def test_solo_takes_the_monte_unseen_and_discards_four():
    state = bid(new_game(CalabresellaRules(), seed=0, **SOLO_23_DEAL), SOLO, PASS, PASS)
    p = state.public
    assert p.table.phase == DISCARD and p.turn == 0 and p.table.extra.held == (16, 12, 12)
    assert state.hands[0] & parse_cards(SOLO_23_MONTE) == parse_cards(SOLO_23_MONTE)
    assert p.table.extra.monte_shown == 0 and p.table.extra.called == -1
    assert view(state, 1).private == view(state, 2).private == 0
    state = run(state, SOLO_EXCHANGE)
    p = state.public
    assert p.table.phase == PLAY and p.turn == 0 and p.history == (SOLO, PASS, PASS)
    assert view(state, 0).private == parse_cards(ASSI) and view(state, 1).private == 0


@pytest.mark.parametrize("peek", [False, True])
def test_solissimo_leaves_the_monte_face_down(peek):
    rules = CalabresellaRules(solissimo_peek=peek)
    state = bid(new_game(rules, seed=0, **untouched_deal(SOLO_23_TRICKS)), SOLISSIMO, PASS, PASS)
    p = state.public
    assert p.table.phase == PLAY and p.turn == 0 and p.table.extra.held == (12, 12, 12)
    assert state.hidden.face_down == tuple(cards(ASSI)) and p.table.extra.face_down == 4
    # solissimo_peek: he sees the monte, but may not use it; nobody else sees it.
    assert view(state, 0).private == (parse_cards(ASSI) if peek else 0)
    assert view(state, 1).private == view(state, 2).private == 0
    assert not state.hands[0] & parse_cards(ASSI)


def test_dividete_the_first_opponent_after_the_soloist_gets_the_monte_s_first_two_cards():
    rules = CalabresellaRules(contracts=ALL_CONTRACTS)
    monte = [card("Rb"), card("3d"), card("Ac"), card("4s")]
    state = new_game(rules, seed=3, dealer=2, monte=monte)
    dealt_hands = state.hands
    state = bid(state, PASS, DIVIDETE, PASS)  # seat 1 plays alone: seat 2 comes after him, then seat 0
    p = state.public
    assert p.table.extra.soloist == 1 and p.table.phase == SPLIT and p.turn == 2
    assert state.hands[2] == dealt_hands[2] | parse_cards("Rb 3d")
    assert state.hands[0] == dealt_hands[0] | parse_cards("Ac 4s")
    assert p.table.extra.held == (14, 12, 14) and state.hidden.face_down == () and p.table.extra.face_down == 0
    assert legal_actions(state) == [GIVE + c for c in cards_of(state.hands[2])]
    state = run(state, [GIVE + card("Rb"), GIVE + cards_of(dealt_hands[2])[0]])
    assert state.public.table.phase == SPLIT and state.public.turn == 0
    state = run(state, [GIVE + card("4s"), GIVE + card("Ac")])
    p = state.public
    assert p.table.phase == PLAY and p.turn == 1  # the soloist leads
    assert p.table.extra.held == (12, 12, 12) and p.table.extra.face_down == 4 and p.history == (PASS, DIVIDETE, PASS)
    # Each knows his own two discards (face down, for the last trick).
    assert view(state, 2).private == parse_cards("Rb") | 1 << cards_of(dealt_hands[2])[0]
    assert view(state, 0).private == parse_cards("4s Ac") and view(state, 1).private == 0


def test_scegliete_each_opponent_swaps_with_the_monte_but_may_not_take_back_what_he_put_in():
    rules = CalabresellaRules(contracts=ALL_CONTRACTS)
    state = bid(new_game(rules, seed=0, **untouched_deal(SOLO_23_TRICKS)), SCEGLIETE)
    assert legal_actions(state) == [PASS]
    state = bid(state, PASS, PASS)
    p = state.public
    assert p.table.phase == CHOOSE and p.turn == 1  # seat 1, the first after the soloist, looks first
    assert view(state, 1).private == parse_cards(ASSI) and view(state, 2).private == 0
    assert legal_actions(state) == [CALL + c for c in cards(ASSI)] + [PASS]
    state = apply(state, CALL + card("Ad"))
    assert state.public.table.extra.held == (12, 13, 12)
    assert legal_actions(state) == [GIVE + c for c in cards_of(state.hands[1])]  # he owes the monte a card
    state = apply(state, GIVE + card("7d"))
    assert legal_actions(state) == [CALL + c for c in cards("Ac As Ab")] + [PASS]  # not the 7d he put in
    state = run(state, [CALL + card("Ac"), GIVE + card("Ad")])  # the asso he took may go back
    assert legal_actions(state) == [CALL + c for c in cards("As Ab")] + [PASS]  # neither the Ad nor the 7d now
    state = apply(state, PASS)
    p = state.public
    # Seat 2 sees the monte as it is now, and may take what seat 1 put in.
    assert p.table.phase == CHOOSE and p.turn == 2 and view(state, 2).private == parse_cards("Ad 7d As Ab")
    assert legal_actions(state) == [CALL + c for c in cards("Ad 7d As Ab")] + [PASS]
    state = apply(state, PASS)
    p = state.public
    assert p.table.phase == PLAY and p.turn == 0 and p.table.extra.held == (12, 12, 12) and p.table.extra.face_down == 4
    assert p.history == (SCEGLIETE, PASS, PASS)  # the swaps are face down
    assert state.hands[1] & parse_cards("Ac") and sorted(state.hidden.face_down) == cards("Ad 7d As Ab")


# ------------------------------------------------------------------ the discards, the scores


@pytest.mark.parametrize(
    "contract, deal, tricks, before, after",
    [
        # The soloist takes the last trick: the assi he discarded (12 thirds) are his, 11 + 12 = 23.
        ("solo", SOLO_23_DEAL, SOLO_23_TRICKS, (11, 12), (23, 12)),
        # The coalition takes it: the assi are theirs, 21 + 12 = 33.
        ("solo", SOLO_CAPPOTTO_DEAL, SOLO_CAPPOTTO_TRICKS, (2, 21), (2, 33)),
        # Solissimo: the untouched monte (the assi) likewise.
        ("solissimo", None, SOLO_23_TRICKS, (11, 12), (23, 12)),
        ("solissimo", None, SOLO_CAPPOTTO_TRICKS, (2, 21), (2, 33)),
        # Chiamo: the four 4s (no third) to the coalition.
        ("chiamo", CHIAMO_DEAL, CHIAMO_TRICKS, (18, 17), (18, 17)),
    ],
)
def test_the_discards_or_the_untouched_monte_go_to_the_side_that_takes_the_last_trick(
    contract, deal, tricks, before, after
):
    rules = CalabresellaRules()
    if contract == "solo":
        state = solo_hand(rules, deal, tricks)
    elif contract == "solissimo":
        state = solissimo_hand(rules, tricks)
    else:
        state = chiamo_hand(rules, deal)
    p = state.public
    assert p.thirds == before and p.result.card_thirds == after and sum(after) == 35
    assert not any(state.hands) and p.table.extra.face_down == len(state.hidden.face_down) == 4


def test_the_worked_example_chiamo_with_18_thirds_wins_2_from_each_opponent_s_1():
    state = chiamo_hand()
    p = state.public
    # 18 thirds, 6 points: the soloist wins; the coalition has 17, 5 points: no cappotto.
    assert p.result.card_thirds == (18, 17) and p.result.points == (6, 5) and p.result.cappotto is None
    check_stakes(state, (2, -1, -1))
    info = p.rules.game.hand_info(p)
    assert info["stakes"] == [2, -1, -1] and info["contract"] == "chiamo" and info["soloist"] == 0


def test_the_worked_example_solo_lost_on_cappotto_costs_the_soloist_8():
    state = solo_hand(CalabresellaRules(), SOLO_CAPPOTTO_DEAL, SOLO_CAPPOTTO_TRICKS)
    p = state.public
    # 2 thirds, no whole point: a cappotto against the soloist; each opponent receives 2 * 2 = 4.
    assert p.result.card_thirds == (2, 33) and p.result.points == (0, 11) and p.result.cappotto == 1
    check_stakes(state, (-8, 4, 4))
    # Won without cappotto: 23 thirds against 12 (4 points), 2 from each opponent.
    check_stakes(solo_hand(CalabresellaRules(), SOLO_23_DEAL, SOLO_23_TRICKS), (4, -2, -2))


@pytest.mark.parametrize(
    "rule, cappotto_expected, zero_expected",
    [
        # SOLO_CAPPOTTO: the soloist took one trick and 2 thirds; SOLO_ZERO: one trick and no third.
        ("zero_points", (-8, 4, 4), (-8, 4, 4)),  # no whole point in either
        ("zero_thirds", (-4, 2, 2), (-8, 4, 4)),  # 2 thirds are something; 0 are not
        ("all_tricks", (-4, 2, 2), (-4, 2, 2)),  # he took a trick in both
    ],
)
def test_cappotto_rule(rule, cappotto_expected, zero_expected):
    rules = CalabresellaRules(cappotto_rule=rule)
    check_stakes(solo_hand(rules, SOLO_CAPPOTTO_DEAL, SOLO_CAPPOTTO_TRICKS), cappotto_expected)
    zero = solo_hand(rules, SOLO_ZERO_DEAL, SOLO_ZERO_TRICKS)
    assert zero.public.result.card_thirds == (0, 35)
    check_stakes(zero, zero_expected)


def test_a_cappotto_by_the_soloist_doubles_his_win():
    # Four players: the soloist takes every trick (35 thirds) under each cappotto rule.
    for rule in ("zero_points", "zero_thirds", "all_tricks"):
        rules = CalabresellaRules(players=4, cappotto_rule=rule)
        state = play_tricks(bid(new_game(rules, seed=0, **FOUR_DEAL), SOLO, PASS, PASS, PASS), FOUR_SWEEP_TRICKS)
        assert state.public.result.card_thirds == (35, 0) and state.public.result.cappotto == 0
        check_stakes(state, (12, -4, -4, -4))  # 2 (solo) * 2 (cappotto) from each of three


def test_scoring_difference_each_opponent_pays_the_difference_of_the_thirds_doubled_for_all_35():
    rules = CalabresellaRules(scoring="difference")
    # Solo with 23 thirds: 23 - 12 = 2 * 23 - 35 = 11 from each opponent.
    check_stakes(solo_hand(rules, SOLO_23_DEAL, SOLO_23_TRICKS), (22, -11, -11))
    # Chiamo 18 to 17: 1 from each (the contract does not count).
    check_stakes(chiamo_hand(rules), (2, -1, -1))
    # The coalition takes all 35 (the soloist took a trick with no third): 2 * 35 = 70 to each.
    check_stakes(solo_hand(rules, SOLO_ZERO_DEAL, SOLO_ZERO_TRICKS), (-140, 70, 70))
    # 2 thirds against 33: 31 to each, not doubled (the soloist has something).
    check_stakes(solo_hand(rules, SOLO_CAPPOTTO_DEAL, SOLO_CAPPOTTO_TRICKS), (-62, 31, 31))
    four = CalabresellaRules(players=4, scoring="difference")
    state = play_tricks(bid(new_game(four, seed=0, **FOUR_DEAL), SOLO, PASS, PASS, PASS), FOUR_SWEEP_TRICKS)
    check_stakes(state, (210, -70, -70, -70))  # 70 from each of three


def test_the_multipliers_switch_replaces_the_contracts_stakes_it_names():
    check_stakes(chiamo_hand(CalabresellaRules(multipliers={"chiamo": 5})), (10, -5, -5))
    rules = CalabresellaRules(multipliers={"solo": 3, "solissimo": 4})
    check_stakes(chiamo_hand(rules), (2, -1, -1))  # chiamo keeps its 1
    check_stakes(solo_hand(rules, SOLO_CAPPOTTO_DEAL, SOLO_CAPPOTTO_TRICKS), (-12, 6, 6))  # 3 * 2 on cappotto
    check_stakes(solissimo_hand(rules, SOLO_23_TRICKS), (8, -4, -4))
    # The defaults: solissimo 3, on cappotto 6.
    check_stakes(solissimo_hand(CalabresellaRules(), SOLO_23_TRICKS), (6, -3, -3))
    check_stakes(solissimo_hand(CalabresellaRules(), SOLO_CAPPOTTO_TRICKS), (-12, 6, 6))


@pytest.mark.parametrize(
    "contract, expected",
    [(DIVIDETE, (12, -6, -6)), (SCEGLIETE, (24, -12, -12))],  # won, no cappotto: 6 or 12 from each
)
def test_dividete_and_scegliete_stake_6_and_12(contract, expected):
    # The monte (the assi) goes back face down as it came: each opponent puts back what he got.
    for multipliers, stake in ((None, expected), ({"dividete": 1, "scegliete": 1}, (2, -1, -1))):
        rules = CalabresellaRules(contracts=ALL_CONTRACTS, multipliers=multipliers)
        check_stakes(exchanged_back(rules, contract), stake)


def exchanged_back(rules, contract):
    """Dividete or scegliete on the SOLO_23 play with the assi as the monte, which goes back as it came."""
    state = bid(new_game(rules, seed=0, **untouched_deal(SOLO_23_TRICKS)), contract, PASS, PASS)
    if contract == DIVIDETE:  # seat 1 gets the Ad Ac (the monte's first two), seat 2 the As Ab
        assert state.hands[1] & parse_cards("Ad Ac") and state.hands[2] & parse_cards("As Ab")
        state = run(state, [GIVE + c for c in cards(ASSI)])
    else:
        state = run(state, [PASS, PASS])
    state = play_tricks(state, SOLO_23_TRICKS)
    assert state.public.result.card_thirds == (23, 12)  # the assi to the soloist, who takes the last trick
    return state


def test_four_players_all_play_chiamo_stakes_three_against_one_each():
    rules = CalabresellaRules(players=4)
    state = bid(new_game(rules, seed=0, **FOUR_DEAL), CHIAMO, PASS, PASS, PASS)
    assert state.public.table.phase == CALL_PHASE
    state = apply(state, CALL + card("4c"))
    p = state.public
    # No monte: the 4c comes from seat 1 and seat 0 returns a card at once, then plays.
    assert p.table.phase == RETURN and p.table.extra.called_from == 1 and p.table.extra.held == (11, 9, 10, 10)
    state = apply(state, GIVE + card("4d"))
    assert (
        state.public.table.phase == PLAY and state.public.turn == 0 and state.public.exposed_by(1) == parse_cards("4d")
    )
    state = play_tricks(state, FOUR_CHIAMO_TRICKS)
    # 32 thirds to 3 (the last trick: 1 point, no cappotto): 1 from each of three.
    assert state.public.result.card_thirds == (32, 3)
    check_stakes(state, (3, -1, -1, -1))
    # Calling the 3c instead (and returning the 4d): he plays the 3d to the 4d first, the 3c over
    # the 4c last, and takes every trick: cappotto, 2 from each.
    sweep = FOUR_SWEEP_TRICKS[:-1] + ["3c 4c 4s 4b"]
    state = run(
        bid(new_game(rules, seed=0, **FOUR_DEAL), CHIAMO, PASS, PASS, PASS), [CALL + card("3c"), GIVE + card("4d")]
    )
    state = play_tricks(state, ["3d 4d 3s 3b"] + sweep[1:])
    assert state.public.result.card_thirds == (35, 0)
    check_stakes(state, (6, -2, -2, -2))


def test_with_the_dealer_sitting_out_he_pays_or_receives_as_one_more_opponent():
    rules = CalabresellaRules(players=4, four_player="dealer_sits_out")
    deal = dict(CHIAMO_DEAL, dealer=3)  # players 0, 1, 2 at seats 0, 1, 2
    check_stakes(chiamo_hand(rules, deal), (3, -1, -1, -1))  # player 3 pays like the coalition
    deal = dict(CHIAMO_DEAL, dealer=1)  # players 2, 3, 0 at seats 0, 1, 2: player 2 is the soloist
    check_stakes(chiamo_hand(rules, deal), (-1, -1, 3, -1))
    state = solo_hand(rules, dict(SOLO_CAPPOTTO_DEAL, dealer=3), SOLO_CAPPOTTO_TRICKS)
    check_stakes(state, (-12, 4, 4, 4))  # solo lost on cappotto: 4 to each of three, the dealer too


def test_the_stakes_are_zero_sum_in_every_worked_hand():
    for state in (
        chiamo_hand(),
        solo_hand(CalabresellaRules(), SOLO_23_DEAL, SOLO_23_TRICKS),
        solissimo_hand(CalabresellaRules(scoring="difference"), SOLO_CAPPOTTO_TRICKS),
    ):
        assert sum(stakes(state)) == 0 and sum(state.public.rules.game.returns(state.public)) == 0


# ------------------------------------------------------------------ every player passes


def test_all_pass_void_the_hand_is_not_played():
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), PASS, PASS, PASS)
    p = state.public
    assert p.status == GAME_OVER and p.table.extra.contract == 0 and p.table.extra.soloist == -1
    check_stakes(state, (0, 0, 0))
    assert p.result.card_thirds == (0, 0) and p.rules.game.hand_info(p)["contract"] == "all passed"
    assert p.rules.game.hand_info(p)["soloist"] == -1  # no seat: -1, an int as in every other hand
    match = bid(new_game(CalabresellaRules(episode="match", rounds=2), seed=0, **CHIAMO_DEAL), PASS, PASS, PASS)
    assert match.public.status == HAND_OVER and match.public.match_score == (0, 0, 0)
    assert next_hand(match, seed=1).public.dealer == 0  # the deal rotates


def test_all_pass_solo_only_redeal_deals_new_hands_round_the_same_monte_for_solo_or_higher():
    rules = CalabresellaRules(all_pass="solo_only_redeal")
    first = new_game(rules, seed=0, **CHIAMO_DEAL)
    redeal = first.hidden.redeal
    state = bid(first, PASS, PASS, PASS)
    p = state.public
    assert p.status == PLAYING and p.table.phase == AUCTION and p.turn == 0 and p.table.extra.solo_only
    assert p.table.extra.bids == (0, 0, 0) and state.hands == redeal != first.hands
    assert state.hidden.face_down == tuple(cards(CHIAMO_MONTE))  # the monte stays
    assert sum(state.hands) | parse_cards(CHIAMO_MONTE) == FULL and [h.bit_count() for h in state.hands] == [12] * 3
    assert legal_actions(state) == [PASS, SOLO, SOLISSIMO]  # no chiamo
    with pytest.raises(IllegalActionError):
        apply(state, CHIAMO)
    # Every player passes again: void.
    void = bid(state, PASS, PASS, PASS)
    assert void.public.status == GAME_OVER
    check_stakes(void, (0, 0, 0))
    # A solo on the redeal: the exchange as always.
    assert bid(state, PASS, SOLO, PASS).public.table.phase == DISCARD
    only = CalabresellaRules(all_pass="solo_only_redeal", contracts=ALL_CONTRACTS)
    assert legal_actions(bid(new_game(only, seed=0, **CHIAMO_DEAL), PASS, PASS, PASS)) == [
        PASS, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE,
    ]  # fmt: skip


# ------------------------------------------------------------------ the first lead, the signs


@pytest.mark.parametrize(
    "first_lead, contract, soloist, leader",
    [
        ("seed", CHIAMO, 1, 0),  # the forehand after chiamo
        ("seed", SOLO, 1, 1),  # the soloist after the other contracts
        ("seed", SOLISSIMO, 2, 2),  # even when he spoke third
        ("forehand", CHIAMO, 1, 0),
        ("forehand", SOLO, 2, 0),
        ("soloist", CHIAMO, 1, 1),
        ("soloist", SOLISSIMO, 2, 2),
    ],
)
def test_first_lead(first_lead, contract, soloist, leader):
    rules = CalabresellaRules(first_lead=first_lead)
    bids = [contract if seat == soloist else PASS for seat in range(3)]
    state = to_play(bid(new_game(rules, seed=5, dealer=2), *bids))
    p = state.public
    assert p.table.extra.soloist == soloist and p.table.phase == PLAY
    assert p.turn == p.leader == p.first_leader == leader


def test_signals_seed_busso_and_liscio_from_the_second_trick_only():
    def first_trick(rules):
        return run(bid(new_game(rules, seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS), CHIAMO_EXCHANGE)

    state = first_trick(CalabresellaRules())
    t = state.public.table
    assert t.signal_seats == 0b111 and t.signals_from == 1
    assert max(legal_actions(state)) < 40  # no sign on the first trick
    with pytest.raises(IllegalActionError, match="signals are allowed from trick 2 on"):
        apply(state, card("3d") + 40 * BUSSO)
    state = play_tricks(state, CHIAMO_TRICKS[:1])  # seat 0 takes it and leads 2d, keeping the Cd
    legal = legal_actions(state)
    assert card("2d") + 40 * BUSSO in legal and card("2d") + 40 * STRISCIO in legal
    assert max(legal) < 120  # no volo
    state = apply(state, card("2d") + 40 * BUSSO)
    assert state.public.signals_by(0, 0) == (True, False, False)
    state = run(state, [card("Rd"), card("6d")])
    assert card("Cd") + 40 * VOLO not in legal_actions(state)  # his last denaro: a volo, not in the seed's signs
    # signals="full": the three signs from the first trick; "none": none.
    full = first_trick(CalabresellaRules(signals="full"))
    assert card("3d") + 40 * BUSSO in legal_actions(full)
    full = play_tricks(full, CHIAMO_TRICKS[:2])
    assert card("Cd") + 40 * VOLO in legal_actions(full)
    none = first_trick(CalabresellaRules(signals="none"))
    assert none.public.table.signal_seats == 0
    assert max(legal_actions(play_tricks(none, CHIAMO_TRICKS[:1]))) < 40


# ------------------------------------------------------------------ matches


def rotated_chiamo(k):
    """The chiamo deal and its play moved ``k`` seats on: seat ``k`` is the forehand and the soloist."""
    hands = [CHIAMO_DEAL["hands"][(s - k) % 3] for s in range(3)]
    return {"hands": hands, "monte": CHIAMO_DEAL["monte"]}, CHIAMO_EXCHANGE, rotated(CHIAMO_TRICKS, k)


def test_a_match_of_rounds_every_player_deals_rounds_times_and_a_tie_has_no_winner():
    rules = CalabresellaRules(episode="match")  # rounds=1: three hands
    state = chiamo_hand(rules)
    p = state.public
    assert p.status == HAND_OVER and p.match_score == (2, -1, -1) and p.winner is None
    with pytest.raises(TypeError, match="dealer follows from the last hand"):
        next_hand(state, dealer=1)
    deal, exchange, tricks = rotated_chiamo(1)
    state = next_hand(state, **deal)
    p = state.public
    assert p.dealer == 0 and p.turn == 1 and p.hand_number == 1 and p.match_score == (2, -1, -1)
    state = play_tricks(run(bid(state, CHIAMO, PASS, PASS), exchange), tricks)
    # Seat 1 wins the same chiamo: 2 - 1 = 1, -1 + 2 = 1, -1 - 1 = -2.
    assert stakes(state) == (-1, 2, -1) and state.public.match_score == (1, 1, -2)
    assert state.public.status == HAND_OVER
    state = bid(next_hand(state, seed=0), PASS, PASS, PASS)  # dealer 1: seat 2 speaks first; void
    p = state.public
    assert p.dealer == 1 and p.status == GAME_OVER and p.match_score == (1, 1, -2) and p.winner is None
    assert rules.game.returns(p) == (1.0, 1.0, -2.0)  # a match's reward: each player's total
    with pytest.raises(GameOverError):
        next_hand(state, seed=0)
    # rounds=2: six hands.
    state = new_game(CalabresellaRules(episode="match", rounds=2), seed=0)
    for k in range(6):
        assert state.public.hand_number == k
        state = bid(state, PASS, PASS, PASS)
        assert state.public.status == (GAME_OVER if k == 5 else HAND_OVER)
        if k < 5:
            dealer = state.public.dealer
            state = next_hand(state, seed=k)
            assert state.public.dealer == (dealer + 1) % 3


def test_a_match_to_a_target_ends_when_one_player_alone_reaches_it():
    state = chiamo_hand(CalabresellaRules(episode="match", match_end="target", target_score=2))
    p = state.public
    assert p.status == GAME_OVER and p.winner == 0 and p.rules.game.returns(p) == (2.0, -1.0, -1.0)
    rules = CalabresellaRules(episode="match", match_end="target", target_score=3)
    state = chiamo_hand(rules)
    assert state.public.status == HAND_OVER  # 2 < 3
    deal, exchange, tricks = rotated_chiamo(1)
    state = play_tricks(run(bid(next_hand(state, **deal), CHIAMO, PASS, PASS), exchange), tricks)
    assert state.public.match_score == (1, 1, -2) and state.public.status == HAND_OVER
    state = bid(next_hand(state, seed=0), PASS, PASS, SOLO)  # dealer 1: seats 2 and 0 pass, seat 1 bids solo
    state = renuncio(state)  # and renounces in the discards: 2 * 2 = 4 to each of the others
    # 1 + 4 = 5 (alone at the target), 1 - 8 = -7, -2 + 4 = 2.
    assert state.public.match_score == (5, -7, 2) and state.public.status == GAME_OVER and state.public.winner == 0


def test_a_match_with_the_dealer_sitting_out_rotates_the_seats():
    rules = CalabresellaRules(players=4, four_player="dealer_sits_out", episode="match")
    state = chiamo_hand(rules, dict(CHIAMO_DEAL, dealer=3))
    assert state.public.match_score == (3, -1, -1, -1) and state.public.status == HAND_OVER
    state = next_hand(state, seed=0)
    t = state.public.table
    # Player 0 deals and sits out: players 1, 2, 3 at seats 0, 1, 2.
    assert t.controllers == (1, 2, 3) and t.seat_of == (-1, 0, 1, 2) and t.extra.sitting_out == 0
    assert current_agent(state) == 1
    for k in range(3):  # four hands in a round: every player deals once
        state = bid(state, PASS, PASS, PASS)
        assert state.public.status == (GAME_OVER if k == 2 else HAND_OVER)
        if k < 2:
            state = next_hand(state, seed=k)
    assert state.public.winner == 0 and rules.game.returns(state.public) == (3.0, -1.0, -1.0, -1.0)


# ------------------------------------------------------------------ renuncio and illegal actions


def at(rules, deal, actions):
    return run(new_game(rules, seed=0, **deal), actions)


@pytest.mark.parametrize(
    "rules, deal, actions, expected",
    [
        # In the auction, before any contract: the offender pays each other player 2.
        ({}, CHIAMO_DEAL, [], (-4, 2, 2)),
        ({}, CHIAMO_DEAL, [CHIAMO], (2, -4, 2)),
        ({"players": 4}, FOUR_DEAL, [PASS], (2, -6, 2, 2)),
        ({"players": 4, "four_player": "dealer_sits_out"}, dict(CHIAMO_DEAL, dealer=3), [], (-6, 2, 2, 2)),
        # The call: the soloist loses chiamo as on cappotto, 1 * 2 to each.
        ({}, CHIAMO_DEAL, [CHIAMO, PASS, PASS], (-4, 2, 2)),
        # (The call comes after the contract: with chiamo worth 5 it costs 5 * 2 to each, where the
        # auction's renuncio stays at 2.)
        ({"multipliers": {"chiamo": 5}}, CHIAMO_DEAL, [CHIAMO, PASS, PASS], (-20, 10, 10)),
        ({"multipliers": {"chiamo": 5}}, CHIAMO_DEAL, [CHIAMO], (2, -4, 2)),
        # The play: the soloist's renuncio loses, an opponent's wins him the stake as on cappotto.
        ({}, CHIAMO_DEAL, [CHIAMO, PASS, PASS] + CHIAMO_EXCHANGE, (-4, 2, 2)),
        ({}, CHIAMO_DEAL, [CHIAMO, PASS, PASS] + CHIAMO_EXCHANGE + [card("3d")], (4, -2, -2)),
        ({}, untouched_deal(SOLO_23_TRICKS), [SOLISSIMO, PASS, PASS, card("3d")], (12, -6, -6)),
        # The discards of solo: 2 * 2 to each.
        ({}, SOLO_23_DEAL, [SOLO, PASS, PASS], (-8, 4, 4)),
        # Scegliete, an opponent's exchange: 12 * 2 from each.
        ({"contracts": ALL_CONTRACTS}, untouched_deal(SOLO_23_TRICKS), [SCEGLIETE, PASS, PASS], (48, -24, -24)),
        # Difference scoring: all 35 thirds lost, doubled: 70.
        ({"scoring": "difference"}, CHIAMO_DEAL, [CHIAMO, PASS, PASS] + CHIAMO_EXCHANGE + [card("3d")], (140, -70, -70)),
    ],
)  # fmt: skip
def test_a_renuncio_loses_the_contract_as_on_cappotto(rules, deal, actions, expected):
    state = at(CalabresellaRules(**rules), deal, actions)
    offender = state.public.turn
    state = renuncio(state)
    assert state.public.result.renuncio == offender
    check_stakes(state, expected)


def test_the_environment_turns_an_illegal_action_into_a_renuncio():
    env = calabresella_v0.env()
    env.reset(options=CHIAMO_DEAL)
    assert env.agent_selection == "player_0"
    with pytest.warns(
        calabresella_v0.RenuncioWarning, match="renuncio: player_0.*before any contract, the offender pays"
    ):
        env.step(card("3d"))  # a card in the auction
    assert all(env.terminations.values())
    assert tuple(env.rewards[f"player_{a}"] for a in range(3)) == (-4.0, 2.0, 2.0)
    assert env.infos["player_1"]["renuncio"]["agent"] == "player_0"
    from tressette_env.play import hand_over_lines  # the play screen's end of the hand says the same

    lines = hand_over_lines(env.unwrapped.game.public, ["you", "left", "right"], ["you", "player 1", "player 2"])
    assert "renuncio by you: in the auction, before any contract, the offender pays each other player 2" in lines
    assert not any("void" in line for line in lines) and "stakes: you -4 · player 1 +2 · player 2 +2" in lines
    env.reset(options=untouched_deal(SOLO_23_TRICKS))
    for a in (SOLISSIMO, PASS, PASS, card("3d")):
        env.step(a)
    with pytest.warns(calabresella_v0.RenuncioWarning, match="renuncio: player_1.*its side loses the contract as on"):
        env.step(card("4b"))  # player 1 holds Cd 7d 5d
    assert tuple(env.rewards[f"player_{a}"] for a in range(3)) == (12.0, -6.0, -6.0)


def test_illegal_action_raise_refuses_it_and_changes_nothing():
    env = calabresella_v0.raw_env(illegal_action="raise")
    env.reset(options=CHIAMO_DEAL)
    for a in (CHIAMO, PASS, PASS):
        env.step(a)
    game = env.game
    with pytest.raises(IllegalActionError, match="player_0 took illegal action"):
        env.step(CALL + card("2d"))  # a card he holds
    assert env.game is game and env.agent_selection == "player_0" and not any(env.terminations.values())
    env.step(CALL + card("3d"))
    with pytest.raises(IllegalActionError):
        env.step(GIVE + card("3d"))  # the called card may not go back
    assert env.game.public.table.phase == RETURN
    # The engine itself: an illegal action raises and the state is as it was.
    state = bid(new_game(CalabresellaRules(), seed=0, **CHIAMO_DEAL), CHIAMO, PASS, PASS)
    before = state
    for action in (PASS, CALL + card("2d"), GIVE + card("2d"), card("2d"), 300):
        with pytest.raises((IllegalActionError, ValueError)):
            apply(state, action)
    assert state == before


# ------------------------------------------------------------------ bad inputs

HANDS = CHIAMO_DEAL["hands"]
MONTE = CHIAMO_DEAL["monte"]


@pytest.mark.parametrize(
    "switches, options, message",
    [
        ({}, {"hands": [HANDS[0][:11], HANDS[1], HANDS[2]]}, "hand 0 of the deal has 11 cards; it needs exactly 12"),
        ({}, {"hands": [HANDS[0] + MONTE[:1], HANDS[1], HANDS[2]]}, "hand 0 of the deal has 13 cards"),
        ({}, {"hands": HANDS[:2]}, "a deal's hands are 3 lists of 12"),
        ({}, {"hands": [HANDS[0], HANDS[0], HANDS[2]]}, "card 1 is dealt in hand 0 and in hand 1"),
        ({}, {"hands": HANDS, "monte": MONTE[:3]}, "monte 0 of the deal has 3 cards; it needs exactly 4"),
        ({}, {"hands": HANDS, "monte": [HANDS[2][0]] + MONTE[1:]}, "card 4 is dealt in hand 2 and in monte 0"),
        ({}, {"monte": [0, 0, 1, 2]}, "card 0 is dealt twice in monte 0"),
        ({}, {"hands": [[40] + HANDS[0][1:], HANDS[1], HANDS[2]]}, "card id 40; card ids are 0..39"),
        ({}, {"hands": HANDS, "dealer": 3}, r"dealer must be a seat 0\.\.2"),
        ({"players": 4}, {"hands": HANDS}, "a deal's hands are 4 lists of 10"),
        ({"players": 4}, {"hands": SUITS_DEAL, "monte": []}, 'four_player="all_play" deals every card: there is no monte'),
        ({"players": 4, "four_player": "dealer_sits_out"}, {"dealer": 4}, r"dealer must be a seat 0\.\.3"),
        ({}, {"stock": []}, r"unknown reset option\(s\) \['stock'\]"),
    ],
)  # fmt: skip
def test_a_bad_chosen_deal_is_refused_and_changes_nothing(switches, options, message):
    env = calabresella_v0.raw_env(**switches)
    env.reset(seed=0)
    game = env.game
    with pytest.raises(ValueError, match=message):
        env.reset(seed=1, options=options)
    assert env.game is game
    if "stock" not in options:
        with pytest.raises(ValueError, match=message):
            new_game(CalabresellaRules(**switches), seed=1, **options)


def test_bad_rule_switches_are_named():
    for switches, message in (
        ({"players": 5}, "players=5: must be one of 3, 4"),
        ({"four_player": "five"}, "four_player='five': must be one of"),
        ({"auction": "dutch"}, "auction='dutch': must be one of 'ascending', 'first_taker'"),
        ({"contracts": ("solo", "chiamo")}, "contracts=.*in that order"),
        ({"contracts": ("bogus",)}, "contracts=.*must be a tuple of some of"),
        ({"contracts": ()}, "contracts=.*must be a tuple of some of"),
        ({"players": 4, "contracts": ("chiamo", "solissimo")}, 'four_player="all_play" has no monte'),
        ({"all_pass": "solo_only_redeal", "contracts": ("chiamo",)}, "needs solo or a higher contract"),
        ({"call_rule": "lowest"}, "call_rule='lowest': must be one of 'any', 'highest_missing'"),
        ({"show_monte_on_call": 1}, "show_monte_on_call=1: must be True or False"),
        ({"exchange": "none"}, "exchange='none': must be one of"),
        ({"solissimo_peek": "yes"}, "solissimo_peek='yes': must be True or False"),
        ({"first_lead": "dealer"}, "first_lead='dealer': must be one of"),
        ({"multipliers": {"solo": 0}}, "'solo': 0 is not"),
        ({"multipliers": {"bogus": 1}}, "'bogus': 1 is not"),
        ({"multipliers": 3}, "multipliers=3: must be a dict"),
        ({"scoring": "points"}, "scoring='points': must be one of"),
        ({"cappotto_rule": "none"}, "cappotto_rule='none': must be one of"),
        ({"all_pass": "forced"}, "all_pass='forced': must be one of"),
        ({"signals": "volo"}, "signals='volo': must be one of"),
        ({"episode": "game"}, "episode='game': must be one of"),
        ({"match_end": "never"}, "match_end='never': must be one of"),
        ({"rounds": 0}, "rounds=0: must be an int 1..10000"),
        ({"target_score": 0}, "target_score=0: must be an int 1..10000"),
        ({"illegal_action": "ignore"}, "illegal_action='ignore': must be one of"),
    ):
        with pytest.raises(ValueError, match=message):
            make_rules(**switches)
    with pytest.raises(TypeError, match="unknown rule switch 'player'"):
        make_rules(player=3)
    with pytest.raises(TypeError, match=r"unknown deal option\(s\) \['stock'\]"):
        new_game(CalabresellaRules(), seed=0, stock=[])


def test_nothing_may_be_done_after_the_end():
    state = chiamo_hand()
    assert legal_actions(state) == [] and state.public.turn == -1
    with pytest.raises(GameOverError, match="nobody is to act"):
        apply(state, 0)
    with pytest.raises(GameOverError):
        renuncio(state)
    with pytest.raises(GameOverError, match="next_hand needs a finished hand of an unfinished match"):
        next_hand(state, seed=0)
    with pytest.raises(GameOverError):
        next_hand(new_game(CalabresellaRules(episode="match"), seed=0), seed=1)  # the hand is not over
    void = bid(new_game(CalabresellaRules(), seed=0), PASS, PASS, PASS)
    with pytest.raises(GameOverError):
        apply(void, PASS)
    with pytest.raises(ValueError, match=r"seat must be a seat 0\.\.2"):
        view(state, 3)


# ------------------------------------------------------------------ invariants of random play


@st.composite
def rule_sets(draw):
    """A Calabresella rule set over many switch combinations (the refused ones left out)."""
    players = draw(st.sampled_from([3, 3, 4]))
    four_player = draw(st.sampled_from(["all_play", "dealer_sits_out"]))
    all_play = players == 4 and four_player == "all_play"
    pool = ("chiamo", "solo") if all_play else ALL_CONTRACTS
    chosen = draw(st.one_of(st.none(), st.sets(st.sampled_from(pool), min_size=1)))
    contracts = None if chosen is None else tuple(c for c in ALL_CONTRACTS if c in chosen)
    enabled = contracts or (("chiamo", "solo") if all_play else ("chiamo", "solo", "solissimo"))
    all_pass = draw(st.sampled_from(["void", "solo_only_redeal"])) if set(enabled) != {"chiamo"} else "void"
    return make_effective(  # a switch with no effect under the others left at its default
        CalabresellaRules,
        players=players,
        four_player=four_player,
        auction=draw(st.sampled_from(["ascending", "first_taker"])),
        contracts=contracts,
        call_rule=draw(st.sampled_from(["any", "highest_missing"])),
        show_monte_on_call=draw(st.booleans()),
        exchange=draw(st.sampled_from(["full", "partial"])),
        solissimo_peek=draw(st.booleans()),
        first_lead=draw(st.sampled_from(["seed", "forehand", "soloist"])),
        multipliers=draw(st.sampled_from([None, {"chiamo": 2}, {"solo": 1, "scegliete": 20}])),
        scoring=draw(st.sampled_from(["stake", "stake", "difference"])),
        cappotto_rule=draw(st.sampled_from(["zero_points", "zero_thirds", "all_tricks"])),
        all_pass=all_pass,
        signals=draw(st.sampled_from(["seed", "full", "none"])),
        episode=draw(st.sampled_from(["hand", "match"])),
        match_end=draw(st.sampled_from(["rounds", "target"])),
        rounds=draw(st.sampled_from([1, 2])),
        target_score=draw(st.sampled_from([3, 5])),
    )


def check_cards(state):
    """Every card exactly once: in a hand, face down (the monte, the discards) or played."""
    p = state.public
    face_down = sum(1 << c for c in state.hidden.face_down)
    assert len(set(state.hidden.face_down)) == len(state.hidden.face_down) == p.table.extra.face_down
    seen = p.all_played
    for h in (*state.hands, face_down):
        assert not h & seen
        seen |= h
    assert seen == FULL
    if p.table.phase:
        assert p.table.extra.held == tuple(h.bit_count() for h in state.hands)
    for seat in range(p.table.seats):
        private = view(state, seat).private
        assert not private & state.hands[seat]
        assert not private & p.all_played  # what is played is no seat's own knowledge
        if p.table.extra.contract == SCEGLIETE:  # an opponent knows the monte as he saw it: the other may since
            others = sum(h for s, h in enumerate(state.hands) if s != seat)  # have taken some of it
            assert private & ~(face_down | others) == 0
        else:
            assert private & ~face_down == 0


def check_hand(state):
    """A finished hand: the thirds, the face-down cards to the last trick, the stakes (FAMILY.md 4.3)."""
    p = state.public
    rules = p.rules
    x = p.table.extra
    result = p.result
    assert sum(x.stakes) == 0 and len(x.stakes) == rules.players
    if result.renuncio is not None:  # the offender pays (his side loses the contract as on cappotto)
        assert x.stakes[p.table.controllers[result.renuncio]] == min(x.stakes) < 0
        return
    if x.contract == 0:  # every player passed: void
        assert x.stakes == (0,) * rules.players and p.all_played == 0
        return
    n = p.table.seats
    assert p.all_played.bit_count() == n * p.table.tricks and not any(state.hands)
    assert len(state.hidden.face_down) == (0 if rules.all_play else 4)
    face_down = sum(THIRDS[c] for c in state.hidden.face_down)
    assert sum(p.thirds) + face_down == 35 and sum(result.card_thirds) == 35
    last = p.table.sides[p.leader]
    assert result.card_thirds == tuple(t + (face_down if side == last else 0) for side, t in enumerate(p.thirds))
    solo, other = result.card_thirds
    won = solo >= 18
    tricks = [0, 0]
    for leader, trick, _ in p.tricks():
        tricks[p.table.sides[trick_winner(leader, trick, n)]] += 1
    loser = 1 if won else 0
    cappotto = {
        "zero_points": result.card_thirds[loser] < 3,
        "zero_thirds": result.card_thirds[loser] == 0,
        "all_tricks": tricks[loser] == 0,
    }[rules.cappotto_rule]
    if rules.scoring == "stake":
        unit = rules.multiplier(x.contract) * (2 if cappotto else 1) * (1 if won else -1)
    else:
        unit = (solo - other) * (2 if max(solo, other) == 35 else 1)
    soloist = p.table.controllers[x.soloist]
    assert x.stakes == tuple((rules.players - 1) * unit if a == soloist else -unit for a in range(rules.players))


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_invariants_of_random_legal_play(rules, seed):
    rng = random.Random(seed)
    state = new_game(rules, seed)
    for _ in range(100):
        p = state.public
        assert [a for a in range(rules.players) if p.table.seat_of[a] >= 0] == sorted(p.table.controllers)
        steps = 0
        while state.public.status == PLAYING:
            check_cards(state)
            legal = legal_actions(state)
            assert legal  # never stuck
            if rng.random() < 0.005:  # now and then an illegal action: a renuncio
                offender = state.public.turn
                state = renuncio(state)
                assert state.public.result.renuncio == offender
                break
            state = apply(state, rng.choice(legal))
            steps += 1
            assert steps < 250  # the hand always ends
        check_cards(state)
        check_hand(state)
        p = state.public
        if p.status == GAME_OVER:
            break
        assert rules.is_match and p.status == HAND_OVER
        state = next_hand(state, rng)
    p = state.public
    assert p.status == GAME_OVER
    returns = rules.game.returns(p)
    assert sum(returns) == 0
    if rules.is_match:
        assert returns == tuple(float(s) for s in p.match_score)
        best = max(p.match_score)
        assert p.winner == (p.match_score.index(best) if p.match_score.count(best) == 1 else None)
        if rules.match_end == "rounds":
            assert p.hand_number + 1 == rules.rounds * rules.players
        else:
            assert best >= rules.target_score and p.winner is not None  # one player alone at the target
    else:
        assert returns == tuple(float(s) for s in p.table.extra.stakes)
    with pytest.raises(GameOverError):
        apply(state, PASS)


@pytest.mark.parametrize(
    "switches",
    [
        {},
        {"contracts": ALL_CONTRACTS},
        {"exchange": "partial", "contracts": ALL_CONTRACTS},
        {"players": 4},
        {"players": 4, "four_player": "dealer_sits_out", "contracts": ALL_CONTRACTS},
    ],
)
def test_random_play_with_every_contract(switches):
    """Each contract played over shuffled deals (beside the hypothesis test's mixed rule sets)."""
    rules = CalabresellaRules(**switches)
    rng = random.Random(len(switches))
    for contract in rules.enabled:
        for seed in range(6):
            state = apply(new_game(rules, seed), contract)  # the forehand takes it; the others pass
            while state.public.table.phase == AUCTION:
                state = apply(state, PASS)
            assert state.public.table.extra.contract == contract
            while state.public.status == PLAYING:
                check_cards(state)
                state = apply(state, rng.choice(legal_actions(state)))
            check_hand(state)


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare"])
def test_a_negative_action_id_in_a_phase_is_an_illegal_action_that_changes_nothing(game):
    from tressette_env.envs.spec import game_spec

    state = new_game(game_spec(game).make_rules(), 0)
    with pytest.raises(IllegalActionError, match="may not play -1 .-1.: action ids are never negative; legal: passo"):
        apply(state, -1)
    assert state.public.history == () and state.public.table.phase == 1
