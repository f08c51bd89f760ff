"""The heuristic's rules (``tressette_env.agents.heuristic``'s docstring), one hand-built position each.

Each position is chosen so that its rule, and no earlier one, decides the move, and so that
the rules after it would choose another move: take the rule out and its test fails. The
heuristic reasons about the cards it has not seen (any unplayed card not in its hand may lie
with any seat that has not shown a void), so "nobody after me can beat it" below means that
no unseen card can.

Seats: play goes 0 -> 1 -> 2 -> 3, partners sit opposite (0 and 2, 1 and 3), the seat after
the dealer leads. Strength in a suit: 3 > 2 > asso > re > cavallo > fante > 7 > 6 > 5 > 4.
"""

import random

from tests.helpers import SUITS_DEAL, action, fill, hands, play
from tressette_env.agents import HeuristicPlayer
from tressette_env.engine import CALL_OUT, Rules, legal_actions, new_game, view

PLAIN = Rules(accusi=False, signals=False)  # no declarations, no signals: the card alone decides
SIGNALS = Rules(accusi=False)  # signals on (busso, striscio, volo), still no declarations


def decide(state):
    """The heuristic's action for the seat on turn."""
    seat = state.public.turn
    return HeuristicPlayer().act(view(state, seat), legal_actions(state), random.Random(0))


# ------------------------------------------------------------------------------------------
# On lead


def test_rule_1_calls_out_when_the_claim_is_true():
    # Target 1: the first point a team takes makes its claim true. Seat 0 leads the asso di
    # denari and nobody can follow (each seat holds one suit), so team 0 has its point and seat 0
    # is on lead again. Before that trick the claim would be false and it leads a card instead.
    rules = Rules(episode="match", calling_out=True, target_score=1, accusi=False, signals=False)
    state = new_game(rules, hands=SUITS_DEAL, dealer=3)
    assert decide(state) != CALL_OUT  # 0 points: a claim now would lose the match
    state = play(state, "Ad", "4c", "4s", "4b")
    assert decide(state) == CALL_OUT
    # At the first lead of a hand of a match: 20 points are not 21, 21 are.
    state = new_game(Rules(episode="match", calling_out=True, target_score=21), seed=0)
    team = state.public.turn % 2
    ahead = (20, 3) if team == 0 else (3, 20)
    assert decide(state._replace(public=state.public._replace(match_score=ahead))) != CALL_OUT
    there = (21, 3) if team == 0 else (3, 21)  # (after a tie the match can go on at 21 or more)
    assert decide(state._replace(public=state.public._replace(match_score=there))) == CALL_OUT


def test_rule_2_returns_the_suit_of_a_partner_busso_with_its_highest_card():
    # Seat 2 leads the 5 di coppe with busso and seat 0 takes the trick with the re. Seat 0 holds
    # no master (no 3, the 3 di coppe is still out) and no asso, so rules 3 and 4 pass, and rule 5
    # (the suit the partner opened) would lead the same suit low: the 7. Rule 2 leads the 2.
    deal = fill(seat_0="Rc 2c 7c 4d 5d 6d 7d 4s 5s 4b", seat_1="6c", seat_2="5c 3c", seat_3="4c")
    state = play(new_game(SIGNALS, hands=deal, dealer=1), "5c busso", "4c", "Rc", "6c")
    assert state.public.turn == 0
    assert decide(state) == action("2c")  # no signal: the 7 left is no honour, one card is not long


def test_rule_3_leads_a_master_card():
    # Seat 1's 3 di denari is the master of a suit it holds three cards of. No partner lead yet
    # and no asso; without rule 3, rule 6 would lead low from denari, its longest suit: the 5.
    deal = fill(seat_1="3d 5d 7d 4c 6c 4s 6s 4b 6b Fb")
    state = new_game(PLAIN, hands=deal, dealer=0)
    assert decide(state) == action("3d")


def test_rule_3_keeps_a_lone_master_before_the_last_two_tricks():
    # The first lead: seat 0's 3 di denari is a master, but its only denaro. Rule 3 keeps it (it is
    # the entry to win the lead back) and rule 6 leads low from coppe, the longest suit.
    deal = fill(seat_0="3d 4c 5c 6c 7c 4s 5s 6s 4b 5b")
    state = new_game(PLAIN, hands=deal, dealer=3)
    assert decide(state) == action("4c")


def test_rule_4_leads_a_master_asso():
    # Seat 0 leads its 3 di coppe and takes the 2 with it: its asso di coppe is now the master
    # (rule 3 leaves assi to rule 4) and other coppe are still out. Seat 0 holds no other master
    # and the partner has opened nothing; rule 6 would lead the 4 di denari, from its longest suit.
    deal = fill(seat_0="3c Ac 4d 5d 6d 7d 4s 5s 4b 5b", seat_1="2c", seat_2="4c", seat_3="5c")
    state = play(new_game(PLAIN, hands=deal, dealer=3), "3c", "2c", "4c", "5c")
    assert state.public.turn == 0
    assert decide(state) == action("Ac")


def test_rule_5_returns_the_suit_the_partner_opened():
    # Seat 2 opens spade (no signal), seat 0 takes with the re. Seat 0 has no master (the 3 di spade
    # is out, no 3s, no assi), and its longest suit is denari: rule 6 would lead the 4 di denari.
    # Rule 5 goes back to spade, low.
    deal = fill(seat_0="Rs 7s 4d 5d 6d 7d Fd 4c 5c 4b", seat_1="6s", seat_2="4s", seat_3="5s")
    state = play(new_game(PLAIN, hands=deal, dealer=1), "4s", "5s", "Rs", "6s")
    assert state.public.turn == 0
    assert decide(state) == action("7s")


def test_rule_6_leads_low_from_the_longest_suit_never_an_unguarded_asso():
    # The first lead, no master, no partner lead: rule 6 decides. Denari is the longest suit but
    # holds the asso without the 3 or 2 to guard it, so it leads from coppe, the next longest, and
    # its lowest card. Without the guard it would lead the 5 di denari.
    deal = fill(seat_0="Ad 5d 6d 7d Fd 4c 5c 6c 4s 4b")
    state = new_game(PLAIN, hands=deal, dealer=3)
    assert decide(state) == action("4c")


# Signals on the lead. Each position leads the card the rule above names; the signal is the point.


def test_volo_with_the_last_card_of_a_suit():
    # Rule 5's position with signals on: the 7 di spade is seat 0's last spade.
    deal = fill(seat_0="Rs 7s 4d 5d 6d 7d Fd 4c 5c 4b", seat_1="6s", seat_2="4s", seat_3="5s")
    state = play(new_game(SIGNALS, hands=deal, dealer=1), "4s", "5s", "Rs", "6s")
    assert decide(state) == action("7s volo")


def test_busso_from_a_suit_with_an_honour_but_not_the_master():
    # Rule 6 leads the 5 di spade from 2 5 6 7: it keeps the 2 (an honour), the 3 is out: busso.
    deal = fill(seat_0="2s 5s 6s 7s 4d 5d 4c 5c 4b 5b")
    assert decide(new_game(SIGNALS, hands=deal, dealer=3)) == action("5s busso")
    # Rule 3 leads the 3 di spade from 3 2 5: it keeps an honour but holds the master: no busso
    # (and no striscio: the suit has honours).
    deal = fill(seat_0="3s 2s 5s 4d 5d 4c 5c 6c 4b 5b")
    assert decide(new_game(SIGNALS, hands=deal, dealer=3)) == action("3s")


def test_striscio_from_a_long_suit_without_honours():
    # Rule 6 leads the 4 di bastoni from 4 5 6 re: three more bastoni, no 3, 2 or asso: striscio.
    deal = fill(seat_0="4b 5b 6b Rb 4d 5d 4c 5c 6s 7s")
    assert decide(new_game(SIGNALS, hands=deal, dealer=3)) == action("4b striscio")


def test_signals_on_the_lead_are_the_club_conventions():
    # The signal helper on its own, one lead of each kind from one hand.
    from tressette_env.agents.heuristic import _with_signal

    deal = hands(
        "3d 4c 5c 6c Ac 2s 5s Fb Cb Rb",
        "Ad 2d 4d 5d 6d 7d Fd Cd Rd 7c",
        "2c 3c Fc Cc Rc As 3s 4s 6s 7s",
        "Fs Cs Rs Ab 2b 3b 4b 5b 6b 7b",
    )
    state = new_game(Rules(accusi=False), hands=deal, dealer=3)  # seat 0 leads
    seat_view, legal = view(state, 0), legal_actions(state)
    unplayed = (1 << 40) - 1
    assert _with_signal(seat_view, action("3d"), legal, unplayed) == action("3d volo")  # its last denaro
    assert _with_signal(seat_view, action("5s"), legal, unplayed) == action("5s busso")  # keeps the 2, not the master
    assert _with_signal(seat_view, action("Fb"), legal, unplayed) == action("Fb striscio")  # long, no honours
    assert _with_signal(seat_view, action("4c"), legal, unplayed) == action("4c busso")  # keeps the asso di coppe


# ------------------------------------------------------------------------------------------
# Following suit


def test_rule_7_gives_points_to_a_partner_sure_to_take():
    # Seat 1 leads the 3 di coppe: nothing beats it, so partner seat 3 (last) gives it points, the
    # asso first. Rule 14 (the cheapest card) would play the 5.
    deal = fill(seat_1="3c", seat_2="4c", seat_3="Ac 5c Fc")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Ac")
    # Without an asso: a figure (the fante, the cheapest), keeping the 2.
    deal = fill(seat_1="3c", seat_2="4c", seat_3="2c Fc Rc 5c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Fc")


def test_rule_8_answers_a_partner_busso_with_the_highest_card():
    # Seat 2 leads the 5 di coppe with busso, seat 3 plays under it. The partner is ahead but not
    # sure (the 3, 2 and asso are out and seat 1 still plays), no points are on the table (so not
    # rule 13): rule 14 would play the 6. The busso asks seat 0 to take with its best card.
    deal = fill(seat_0="Rc 6c 7c", seat_2="5c 3c", seat_3="4c")
    state = play(new_game(SIGNALS, hands=deal, dealer=1), "5c busso", "4c")
    assert decide(state) == action("Rc")


def test_rule_9_last_to_play_takes_with_the_cheapest_winner_sparing_the_asso():
    # Seat 1's re di coppe is ahead; seat 0 plays last with the asso and the 2, both winning. The
    # asso is the lower card (rule 10, points on the table, would take with it) but rule 9 spares it.
    deal = fill(seat_0="Ac 2c 6c", seat_1="Rc", seat_2="4c", seat_3="5c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "Rc", "4c", "5c")
    assert decide(state) == action("2c")


def test_rule_10_takes_points_for_sure_with_the_cheapest_sure_card():
    # Seat 1 leads the fante di coppe (a point third on the table). Seat 2, second hand, holds the
    # cavallo (a winner that the unseen asso or re could beat) and the 3 and 2 (nobody can beat
    # either). Rule 10 takes with the cheaper sure card, the 2; rule 12 would play the best, the 3.
    deal = fill(seat_1="Fc", seat_2="Cc 3c 2c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "Fc")
    assert decide(state) == action("2c")


def test_rule_11_third_hand_plays_high():
    # Partner seat 2 leads the 4 di coppe, seat 3 beats it with the 5; no points on the table (so
    # not rule 10) and one opponent still to play. Rule 14 would play the 6; rule 11 the re.
    deal = fill(seat_0="Rc 7c 6c", seat_2="4c", seat_3="5c")
    state = play(new_game(PLAIN, hands=deal, dealer=1), "4c", "5c")
    assert decide(state) == action("Rc")


def test_rule_12_second_hand_low_unless_there_are_points():
    # Seat 1 leads the 4 di coppe, no points: seat 2 plays low (the 6) though the re would win.
    deal = fill(seat_1="4c", seat_2="Rc 6c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "4c")
    assert decide(state) == action("6c")
    # Seat 1 leads the fante (a third): seat 2 has no sure winner (the 3, 2 and asso are out), so
    # not rule 10; it plays its best, the re. Rule 14 would play the 5.
    deal = fill(seat_1="Fc", seat_2="Rc Cc 5c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "Fc")
    assert decide(state) == action("Rc")


def test_rule_13_covers_a_partner_not_sure_with_points_on_the_table():
    # Partner seat 2 leads the fante di coppe and is ahead, but the asso, re and cavallo are out
    # and seat 1 plays last: not sure, so not rule 7. With a point third on the table seat 0
    # covers with the cheapest card nobody can beat, the 2 (it holds the 3). Rule 14: the 5.
    deal = fill(seat_0="3c 2c 5c", seat_2="Fc", seat_3="4c")
    state = play(new_game(PLAIN, hands=deal, dealer=1), "Fc", "4c")
    assert decide(state) == action("2c")


def test_rule_14_otherwise_plays_the_cheapest_card():
    # Seat 1 leads the 3 di coppe: seat 2 cannot win (no earlier rule applies) and holds the asso
    # and the 2. The cheapest card is the one with fewer points, the 2, though the asso is weaker.
    deal = fill(seat_1="3c", seat_2="Ac 2c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c")
    assert decide(state) == action("2c")
    # With lisci too: no points, and the lowest of them.
    deal = fill(seat_1="3c", seat_2="Ac 2c 7c 5c")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c")
    assert decide(state) == action("5c")


# ------------------------------------------------------------------------------------------
# Void in the led suit


def test_rule_15_void_gives_a_partner_sure_to_take_an_asso_from_the_shortest_suit():
    # Seat 1 leads the 3 di coppe (sure), seat 3 has no coppe: it gives the lone asso di bastoni,
    # not the asso di denari guarded by two lisci. Rule 16 would throw a liscio.
    deal = fill(seat_1="3c", seat_2="4c", seat_3="Ad 4d 5d Ab 4s 5s 6s 7s Fs Cs")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Ab")
    # Without an asso: a figure, the cheapest (the fante di spade). Rule 16: the 4 di bastoni.
    deal = fill(seat_1="3c", seat_2="4c", seat_3="Rd Fs Cb 4d 5d 6d 4s 5s 6s 4b")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Fs")


def test_rule_15_never_gives_an_asso_that_is_already_master():
    # Seat 1 takes the first trick with the 3 di bastoni (the 2 falls too), so seat 3's lone asso
    # di bastoni is master. Seat 1 then leads the 3 di coppe (sure); seat 3, void in coppe, gives
    # the asso di denari (the 3 and 2 di denari are out) though bastoni is its shortest suit.
    deal = fill(seat_0="5b", seat_1="3b 3c", seat_2="2b 4c", seat_3="4b Ab Ad 4d 5d 4s 5s 6s 7s Fs")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3b", "2b", "4b", "5b", "3c", "4c")
    assert state.public.turn == 3
    assert decide(state) == action("Ad")
    # With no other asso: a figure, the cheapest (the fante di spade), not the master asso.
    deal = fill(seat_0="5b", seat_1="3b 3c", seat_2="2b 4c", seat_3="4b Ab Rd 4d 5d 4s 5s 6s 7s Fs")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3b", "2b", "4b", "5b", "3c", "4c")
    assert decide(state) == action("Fs")


def test_rule_16_void_throws_a_worthless_card_from_a_suit_without_an_asso():
    # Seat 1's 3 di coppe wins (an opponent ahead: not rule 15); seat 0 has no coppe. Its shortest
    # suit with a liscio is denari, but the 4 di denari guards the asso: it throws the 4 di bastoni,
    # the lowest liscio of the shortest suit without an asso.
    deal = fill(seat_0="Ad 4d 2s 5s 6s 7s Rs 4b 5b Rb", seat_1="3c", seat_2="4c", seat_3="Rc")
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c", "Rc")
    assert decide(state) == action("4b")
    # The lisci 4 di denari and 7 di spade guard assi, the 4 di bastoni does not.
    deal = hands(
        "Ad 4d Fd 2s As 7s Cs Rs 4b Rb",
        "3c 5c 6c 7c Fc Cc 5d 6d 7d Cd",
        "4c Ac 2c 2d 3d Rd 3s 4s 5s 6s",
        "Rc 2b 3b Ab 5b 6b 7b Fb Cb Fs",
    )
    state = play(new_game(PLAIN, hands=deal, dealer=0), "3c", "4c", "Rc")
    assert decide(state) == action("4b")


# ------------------------------------------------------------------------------------------
# The last tricks

# Seat 3 leads bastoni, which nobody else holds after the first two tricks, and takes trick
# after trick; the others throw. After eight tricks: seat 3 holds the 3 di spade (the master,
# alone, with the 7 di spade still out) and the 4 di coppe; seat 0 the re and 6 di coppe;
# seat 1 the 3 and 2 di coppe; seat 2 the asso di coppe and the 7 di spade.
LATE_DEAL = hands(
    "Ad 2d 3d 4d 5d 6d 7d Fd Rc 6c",
    "Rb 4b Cd Rd As 2s 4s 5s 3c 2c",
    "6s Fs Cs Rs 5c Fc Cc 7c Ac 7s",
    "3b 2b Ab Cb Fb 7b 6b 5b 3s 4c",
)
LATE_TRICKS = [  # in play order: seat 3, 0, 1, 2
    "3b Ad Rb 6s",
    "2b 2d 4b Fs",
    "Ab 3d Cd Cs",
    "Cb 4d Rd Rs",
    "Fb 5d As 5c",
    "6b 6d 2s Fc",
    "7b 7d 4s Cc",
    "5b Fd 5s 7c",
]


def late_position(tricks):
    state = new_game(PLAIN, hands=LATE_DEAL, dealer=2)
    for trick in LATE_TRICKS[:tricks]:
        state = play(state, *trick.split())
    return state


def test_fights_for_the_last_tricks_from_the_ninth_trick_on():
    # The eighth trick (seven done): not yet. On lead it keeps the lone master 3 di spade and rule 6
    # leads the 4 di coppe; second hand, with no points on the table, seat 0 plays low (the 6).
    state = late_position(7)
    assert state.public.tricks_done == 7 and state.public.turn == 3
    assert decide(state) == action("4c")
    assert decide(play(state, "4c")) == action("6c")
    # The ninth trick (eight done): on lead the lone master goes, and second hand takes with the re.
    state = late_position(8)
    assert state.public.tricks_done == 8 and state.public.turn == 3
    assert decide(state) == action("3s")
    assert decide(play(state, "4c")) == action("Rc")
