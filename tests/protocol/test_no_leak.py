"""No leak through the table protocol, mid-hand, in every game of the family.

A player (a bot over ``tressette bot``) receives ``act_message(view(state, seat), legal)`` for its
own seat. Two deals that the seat cannot tell apart must give it byte-identical messages
(``json.dumps``), at every point of the hand: the auction, the call, the exchange, the stock's
draws, the packets, the card play, in later hands of a match too. This is the observation's
no-leak test (``tests/encoders/test_observation.py``, ``tests/hidden.py``) for the protocol, over
every game of the catalog and each of its test rule sets (``tests.games.family.RULE_SETS``, and two more of
Calabresella's: ``LEAK_RULE_SETS``).

How the other deal is built. What a seat has seen is worked out from the rules, the deal and the
actions (``seen``), not read from the ``SeatView`` under test: its hand and every card that passed
through it (its discards), the monte it looked at (Calabresella), every card played or declared,
the cards the rules turn face up (col morto's dummies, in due's shown draws), and the cards whose
place the rules tell the table (``told``). A view that shows its seat more than that (in
``private``, or in ``table.exposed`` where the face-up cards are worked out) fails the test at
once ("shows seat ... cards it has not seen"). Every other card of the deal is "unseen". The game is dealt again from the same seed with the
unseen cards relabelled by a permutation (``DealRandom``: every shuffle of the deal gives the
same order, each unseen card replaced by its image), so that each unseen card goes to the place
(a hand, the stock at the same depth, the monte, a packet) of another unseen card, and every seen
card stays where it was. Then the hand's actions are replayed from scratch with ``apply``: the
public ones as they were, the face-down ones (a perdere's dealer's discards, Calabresella's
discards and swaps, which stay out of the public history) on the relabelled cards.

The other deal is kept when the replay accepts every action (``apply`` checks follow-suit, so a
shown void, each signal's truth, the legality of every call and discard), the same seat is on
turn (under ``first_lead="four_of_denari"`` that says who holds the 4 di denari) and the
declarations are the same (they are public by rule). Nothing else of the public record is read
to accept a deal, so a hidden fact that reached the public record (or ``private``, or the legal
actions' names) makes the messages differ and the test fail.

The permutations tried, in turn: any permutation of the unseen cards, one that keeps each card's
suit (so that shown voids and signals still hold; a restriction needed mid-hand, where a random
deal rarely fits all of them), and the exchange of two unseen cards. Each comparison keeps the
first kept deal that really differs from the real one (another hand or another hidden record).
A seat whose unseen cards all lie in one hand knows them (Tressette in due once the stock is
gone) and is not counted among those compared on another deal. So that the test cannot pass
for nothing, it requires most comparisons to be made on another deal, sees the message change
when one of the seat's own cards is exchanged for an unseen one, and, in Tressette a chiamare,
sees the hidden partner move.

What it cannot see: a public action keeps its id in the other deal, so a leak carried by an
action's id itself is out of its reach; and the face-up cards of the four-seat game, a perdere,
Calabresella (a called card handed over, a card returned) and a chiamare, and in due's packet
tops, are read from the table (``table.exposed``), not worked out, so a leak into those is not seen;
and a card a seat knows to lie in one of two places (scegliete's first opponent, once the second
has exchanged with the monte; the monte shown at a call, once the soloist has discarded) counts as
seen, so which of the two places it lies in could leak unseen (a relabelling within such a set of
places would see it). Two leaks it and its writing found are fixed, and each has
its own test at the end: col morto's dummy leading in the dark (its player was asked for the
opening lead before the dummy was shown, the dummy's cards as his legal actions), and Tressette
in due's packet numbers (an id that ranked a hidden card).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import NamedTuple

import pytest

from tests.games.family import RULE_SETS
from tressette_env import catalog
from tressette_env.engine import (
    CALL_OUT,
    HAND_OVER,
    PLAYING,
    GameOverError,
    GameState,
    IllegalActionError,
    apply,
    legal_actions,
    new_game,
    next_hand,
    view,
)
from tressette_env.engine.actions import CALL, CHIAMO, DIVIDETE, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from tressette_env.engine.state import SeatView
from tressette_env.games.calabresella import CALL_PHASE, CHOOSE, opponents_of
from tressette_env.games.col_morto import FIRST_CARD
from tressette_env.protocol.view import act_message

GAMES = list(RULE_SETS)
LEAK_RULE_SETS = {
    **RULE_SETS,
    "calabresella": [*RULE_SETS["calabresella"], {"all_pass": "solo_only_redeal"}, {"show_monte_on_call": False}],
}
"""The family's test rule sets, and two of Calabresella's more: a redeal when all pass (what a seat held in the first
deal must not count as seen), and a chiamo's monte not shown at the call (a leak of it at the call was invisible)."""
FULL = (1 << 40) - 1
POSITIONS = 24
"""Positions of random play drawn for each rule set of each game (every agent's seat is compared)."""
TRIES = {"any": 6, "suit": 10, "swap": 10}
"""Candidate permutations of each kind tried for one comparison, in this order."""


class Rejected(Exception):
    """A candidate deal that the public record rules out."""


class DealRandom(random.Random):
    """A ``random.Random`` that records each list it shuffles (the real deal) or deals them again relabelled.

    Made with ``decks`` (the recorded shuffles of the real deal) and ``relabel`` (card -> card), each
    shuffle draws the same random numbers as in the real deal (so the dealer and everything else drawn
    stays the same) and then puts the recorded order there, every card replaced by its image.
    """

    def __new__(cls, seed: int, *args: object, **kwargs: object) -> DealRandom:
        return super().__new__(cls, seed)  # Python 3.10's Random takes only the seed here

    def __init__(self, seed: int, decks: tuple | None = None, relabel: dict | None = None) -> None:
        super().__init__(seed)
        self.given = decks
        self.relabel = relabel or {}
        self.decks: list[tuple[int, ...]] = []

    def shuffle(self, x) -> None:  # type: ignore[override]
        super().shuffle(x)
        if self.given is None:
            self.decks.append(tuple(x))
            return
        deck = [self.relabel.get(c, c) for c in self.given[len(self.decks)]]
        self.decks.append(tuple(deck))
        if sorted(deck) != sorted(x):  # e.g. a second shuffle of the cards left by a relabelled first
            raise Rejected("the relabelled deck does not fit the shuffle")
        x[:] = deck


class Hand(NamedTuple):
    """How a hand was dealt: its rules, the previous hand of the match (None: the first), the seed, the shuffles."""

    rules: object
    before: GameState | None
    seed: int
    decks: tuple[tuple[int, ...], ...]
    start: GameState
    """The hand as dealt."""


class Position(NamedTuple):
    """A position of random play, with the hand's deal and every action of the hand so far."""

    state: GameState
    hand: Hand
    actions: tuple[tuple[int, bool], ...]
    """(action, face down): the face-down actions stay out of ``public.history``."""


def deal(rules, before: GameState | None, rng: random.Random) -> GameState:
    return new_game(rules, rng) if before is None else next_hand(before, rng)


BID_WEIGHTS = {PASS: 5, CHIAMO: 4, DIVIDETE: 2, SCEGLIETE: 3}
"""Random play bids mostly pass or chiamo (a hidden partner, an exchange), as ``tests/games/test_a_chiamare.py``
does, and often Calabresella's dividete and scegliete where they may be bid (their face-down exchanges)."""


def positions(game: str, count: int, seed: int) -> list[Position]:
    """``count`` positions (a seat to act, mid-hand) of random play under each of ``game``'s test rule sets.

    A quarter of them, where there are such positions, lie in the game's own phases (the auction,
    the call, the exchange, the packets: as many of each phase as can be), the rest in the card
    play; later hands of a match too.
    """
    rng = random.Random(seed)
    out = []
    for switches in LEAK_RULE_SETS[game]:
        rules = catalog.entry(game).make_rules(**switches)
        found: list[Position] = []
        before = None
        redeals = switches.get("all_pass") == "solo_only_redeal"  # (then some positions after a redeal, below)
        while len(found) < 12 * count or (redeals and not any(map(redealt, found)) and len(found) < 100 * count):
            hand_seed = rng.randrange(10**9)
            dealing = DealRandom(hand_seed)
            state = deal(rules, before, dealing)
            hand = Hand(rules, before, hand_seed, tuple(dealing.decks), state)
            actions: list[tuple[int, bool]] = []
            while state.public.status == PLAYING:
                found.append(Position(state, hand, tuple(actions)))
                legal = [a for a in legal_actions(state) if a != CALL_OUT]
                action = rng.choices(legal, [BID_WEIGHTS.get(a, 1) for a in legal])[0]
                after = apply(state, action)
                shown = after.public.history[len(state.public.history) :] == (action,)
                actions.append((action, not shown))
                state = after
            before = state if state.public.status == HAND_OVER else None
        play = [q for q in found if rules.game.card_play_begun(q.state.public)]
        own: dict[int, list[Position]] = {}  # by phase, each phase's in random order
        for q in rng.sample(found, len(found)):
            if not rules.game.card_play_begun(q.state.public):
                own.setdefault(q.state.public.phase, []).append(q)
        some = [q for row in itertools.zip_longest(*own.values()) for q in row if q is not None][: count // 4]
        if redeals:
            after = [q for q in found if redealt(q)]
            assert after, "no hand of random play was redealt"
            some += rng.sample(after, min(len(after), count // 6))
        out.extend(some + rng.sample(play, count - len(some)))
    return out


def redealt(position: Position) -> bool:
    """Whether the position lies after Calabresella's redeal of a hand that every player passed."""
    return bool(getattr(position.state.public.table.extra, "solo_only", False))


def rebuild(position: Position, relabel: dict) -> GameState:
    """The hand dealt again with the unseen cards relabelled, its actions replayed (face-down ones relabelled)."""
    hand = position.hand
    state = deal(hand.rules, hand.before, DealRandom(hand.seed, hand.decks, relabel))
    for action, face_down in position.actions:
        if face_down:
            for base in (CALL, GIVE):
                if base <= action < base + 40:
                    action = base + relabel.get(action - base, action - base)
        state = apply(state, action)
    return state


def folded(packed: int) -> int:
    """The union of the 40-bit blocks of a by-seat packed mask."""
    out = 0
    while packed:
        out |= packed & FULL
        packed >>= 40
    return out


def told(position: Position, v: SeatView) -> int:
    """Cards whose place the rules tell the table, beyond the cards face up, declared or played.

    Read from the rules, the public actions and the real deal, not from the public record's fields
    that say it (``monte_shown``, ``announced``), so that a hidden card leaking into them is not
    taken for a card the seat has seen.
    """
    p = v.public
    rules, x = p.rules, p.table.extra
    if rules.game.name == "calabresella" and x.contract == CHIAMO and x.called >= 0:
        told = 1 << x.called  # its holder hands it over face up, or it lay in the monte: said at the call
        if rules.show_monte_on_call:  # the monte as dealt, turned up for all (no monte: nothing)
            told |= sum(1 << c for c in position.hand.start.hidden.face_down)
        return told
    if rules.game.name == "tressette_a_chiamare" and rules.reveal_partner and x.called >= 0:
        return 1 << x.called  # its holder is announced at the call
    return 0


def held_through(position: Position, seat: int) -> int:
    """Every card that lay in ``seat``'s hand at some point of the hand so far (the hand replayed from its deal).

    A seat knows where each of them went: played, handed over, or discarded face down by itself
    (a perdere's dealer's discards, Calabresella's soloist's), or taken into its hand from the
    monte. Calabresella's redeal when all pass (``all_pass="solo_only_redeal"``) deals the hand
    afresh: what the seat held before tells it nothing of where the cards lie now.
    """
    state = position.hand.start
    held = state.hands[seat]
    for action, _ in position.actions:
        before, state = state, apply(state, action)
        redealt = getattr(state.public.table.extra, "solo_only", False) > getattr(
            before.public.table.extra, "solo_only", False
        )
        held = state.hands[seat] if redealt else held | state.hands[seat]
    return held


def looked_at(position: Position, v: SeatView) -> int:
    """Face-down cards ``v``'s seat looked at without holding them: Calabresella's monte, as it lay when it looked.

    The soloist of a solo, of a chiamo once the card is called (a partial exchange: a full one
    puts the monte in his hand) and of a solissimo with ``solissimo_peek``; in scegliete the first
    opponent once the contract is made, the second once the first has passed. Read from the rules,
    the contract the auction made and the monte where the replayed hand holds it, not from the
    hidden record of who saw what (``CalabresellaHidden.known``, what ``private`` is made of).
    """
    if v.public.rules.game.name != "calabresella":
        return 0
    rules, state, looked = v.public.rules, position.hand.start, {}
    for action, _ in position.actions:
        state = apply(state, action)
        p = state.public
        x = p.table.extra
        if x.soloist < 0:
            continue
        monte = sum(1 << c for c in state.hidden.face_down)
        first, second = opponents_of(p)[:2]
        soloist_looks = x.contract == SOLO or (x.contract == SOLISSIMO and rules.solissimo_peek)
        if v.seat == x.soloist and (soloist_looks or (x.contract == CHIAMO and p.table.phase != CALL_PHASE)):
            looked.setdefault("soloist", monte)
        if x.contract == SCEGLIETE and v.seat == first:
            looked.setdefault("first", monte)
        if x.contract == SCEGLIETE and v.seat == second and p.table.phase == CHOOSE and p.turn == second:
            looked.setdefault("second", monte)
    out = 0
    for cards in looked.values():
        out |= cards
    return out


def face_up(position: Position, v: SeatView) -> int:
    """The cards the rules have turned face up so far, from the rules, the deal and the actions (by seat, packed).

    Col morto's dummies, shown at the deal or after the opening lead (a dummy that leads is shown
    at the deal), and Tressette in due's drawn cards (``show_drawn``) are derived here; the other
    games' face-up cards (Calabresella's called card handed over and card returned, in due's
    packet tops) are read from the table (``table.exposed``), which is where this test is blind.
    """
    p = v.public
    rules = p.rules
    start = position.hand.start
    if rules.game.name == "tressette_col_morto":
        dummies = p.table.extra.dummies
        if rules.dummy_exposed == "deal" or start.public.turn in dummies or position.actions:
            return sum(start.hands[d] << (40 * d) for d in dummies)
        return 0
    if rules.game.name == "tressette_in_due" and rules.deal == "stock":
        if not rules.show_drawn:
            return 0
        return sum((held_through(position, s) & ~start.hands[s]) << (40 * s) for s in (0, 1))
    return p.table.exposed


def seen(position: Position, v: SeatView) -> int:
    """Every card whose place ``v``'s seat knows, from the rules, the deal and the actions, not from ``v`` alone.

    The seat's hand, each card that passed through it (its own discards among them), the monte it
    may have looked at, every card played or declared, each card face up (``face_up``) and the cards
    whose place the rules tell the table (``told``). ``v``'s own fields that say what it knows
    (``private``, ``table.exposed``) are checked against this (``shown_by_view``, in the test below),
    so that a card leaked into them is relabelled here like any other unseen card.
    """
    p = v.public
    known = held_through(position, v.seat) | looked_at(position, v) | p.all_played | folded(p.accusi.revealed)
    return known | folded(face_up(position, v)) | told(position, v)


def shown_by_view(position: Position, v: SeatView) -> int:
    """Every card whose place ``v`` shows its seat: its hand, ``private``, played, declared, face up, told."""
    p = v.public
    return v.hand | v.private | p.all_played | folded(p.accusi.revealed) | folded(p.table.exposed) | told(position, v)


def message(state: GameState, seat: int, agent: int, legal: bool = True) -> str:
    """What ``agent`` (playing from ``seat``) receives: its view, the legal actions when it is to act."""
    p = state.public
    to_act = legal and p.table.controllers[p.turn] == agent
    return json.dumps(act_message(view(state, seat), legal_actions(state) if to_act else []))


def candidate(kind: str, unseen: list[int], rng: random.Random) -> dict:
    """A relabelling of the unseen cards: any permutation, a suit-keeping one, or an exchange of two."""
    if kind == "any":
        return dict(zip(unseen, rng.sample(unseen, len(unseen)), strict=True))
    if kind == "suit":
        relabel = {}
        for suit in range(4):
            cards = [c for c in unseen if c // 10 == suit]
            relabel.update(zip(cards, rng.sample(cards, len(cards)), strict=True))
        return relabel
    a, b = rng.sample(unseen, 2)
    return {a: b, b: a}


def consistent(position: Position, relabel: dict) -> GameState:
    """The game rebuilt on the relabelled deal, if the seat's public record allows it (see the module docstring)."""
    state = position.state
    try:
        other = rebuild(position, relabel)
    except (IllegalActionError, GameOverError) as error:
        raise Rejected(str(error)) from None
    p, q = state.public, other.public
    if q.turn != p.turn or q.accusi != p.accusi or q.table.exposed != p.table.exposed:
        raise Rejected("another seat to act, other declarations or other cards face up")
    return other


def differs(state: GameState, other: GameState) -> bool:
    return other.hands != state.hands or other.dealt != state.dealt or other.hidden != state.hidden


def what_differs(state: GameState, other: GameState, seat: int, agent: int) -> str:
    """The message's fields that differ, and the public record's (and its table's and extra record's)."""
    one, two = json.loads(message(state, seat, agent)), json.loads(message(other, seat, agent))
    keys = [k for k in one if one[k] != two[k]]
    p, q = view(state, seat).public, view(other, seat).public
    fields = [f for f in p._fields if getattr(p, f) != getattr(q, f)]
    table = [f for f in p.table._fields if getattr(p.table, f) != getattr(q.table, f)]
    extra = []
    if p.extra is not None and hasattr(p.extra, "_fields"):
        extra = [f"{f}: {getattr(p.extra, f)!r} != {getattr(q.extra, f)!r}" for f in p.extra._fields
                 if getattr(p.extra, f) != getattr(q.extra, f)]  # fmt: skip
    private = (view(state, seat).private, view(other, seat).private)
    return f"message keys {keys}; public {fields}; table {table}; extra {extra}; private {private}"


def another_deal(position: Position, unseen: list[int], rng: random.Random) -> tuple[str, GameState] | None:
    """The first kept deal that differs from the real one, and the kind of permutation that made it (or None)."""
    for kind, tries in TRIES.items():
        for _ in range(tries):
            try:
                other = consistent(position, candidate(kind, unseen, rng))
            except Rejected:
                continue
            if differs(position.state, other):
                return kind, other
    return None


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_gets_the_same_message_mid_hand_on_deals_it_cannot_tell_apart(game):
    rng = random.Random(sum(map(ord, game)))
    compared = hidden = differed = sides_moved = own_changed = 0
    kinds: Counter = Counter()
    phases: Counter = Counter()
    for position in positions(game, POSITIONS, seed=len(game)):
        state = position.state
        assert rebuild(position, {}) == state  # the deal and the replay rebuild the real game exactly
        p = state.public
        for agent, seat in enumerate(p.table.seat_of):
            if seat < 0:  # a dealer who sits out the hand gets no message
                continue
            compared += 1
            v = view(state, seat)
            known = seen(position, v)
            extra = shown_by_view(position, v) & ~known
            assert not extra, (
                f"{game} {p.rules}, {p.table.extra!r}: the view shows seat {seat} cards it has not seen: "
                f"{[c for c in range(40) if extra >> c & 1]} (private {v.private:#x}, exposed {p.table.exposed:#x})"
            )
            unseen = sorted({c for deck in position.hand.decks for c in deck if not known >> c & 1})
            places = {next((s for s, h in enumerate(state.hands) if h >> c & 1), -1 - c) for c in unseen}
            if len(places) < 2:  # the unseen cards all lie in one hand: the seat knows them (in due's endgame)
                continue
            hidden += 1
            mine = message(state, seat, agent)
            found = another_deal(position, unseen, rng)
            if found is not None:
                kind, other = found
                assert message(other, seat, agent) == mine, (
                    f"{game} {p.rules}, {p.table.extra!r}: seat {seat} tells two deals apart: "
                    + what_differs(state, other, seat, agent)
                )
                differed += 1
                kinds[kind] += 1
                phases["play" if not p.phase else p.rules.game.phase_name(p)] += 1
                game_of = p.rules.game
                sides_moved += game_of.deal_sides(v, other.hands) != game_of.deal_sides(v, state.hands)
            # The comparison can fail: one of the seat's own cards exchanged for an unseen one (where the
            # record allows it) gives another message.
            mask = v.hand & ~folded(p.table.exposed)
            held = [c for c in range(40) if mask >> c & 1]
            if held:
                a, b = rng.choice(held), rng.choice(unseen)
                try:
                    changed = consistent(position, {a: b, b: a})
                except Rejected:
                    continue
                assert message(changed, seat, agent) != mine
                own_changed += 1
    print(
        f"\n{game}: {compared} seats compared ({hidden} with unseen cards), {differed} on another deal "
        f"{dict(kinds)}, sides moved {sides_moved}, phases {dict(phases)}; {own_changed} own-hand changes seen"
    )
    assert differed > 0.8 * hidden and hidden > 0.5 * compared, (compared, hidden, differed, kinds)
    assert own_changed > 0.2 * hidden
    if game == "tressette_a_chiamare":  # the hidden partner did move
        assert sides_moved >= 5


# ---------------------------------------------------------------------- two leaks, fixed
#
# Found by the test above and while writing it (the second lay in a public action's id, which the
# test above keeps as it is).


def first_difference(one: str, two: str) -> list[str]:
    a, b = json.loads(one), json.loads(two)
    return [key for key in a if a[key] != b[key]]


def test_a_dummy_that_makes_the_opening_lead_is_shown_at_the_deal():
    """``dummy_exposed="after_first_card"``: a dummy on lead for the first trick is shown before it leads
    (its player was asked before, with the dummy's hidden cards as his legal actions); a live leader
    still leads in the dark."""
    from tressette_env.games.col_morto import ColMortoRules

    rules = ColMortoRules(players=2, dummy_exposed="after_first_card")
    state = new_game(rules, seed=4, dealer=1)  # player 1 deals: player 0's dummy (seat 2) leads
    p = state.public
    assert p.turn == 2 and p.table.controllers[2] == 0 and p.phase != FIRST_CARD
    assert p.exposed_by(2) == state.hands[2] and p.exposed_by(3) == state.hands[3]
    state = new_game(rules, seed=4, dealer=0)  # player 0 deals: player 1 (seat 1) leads, in the dark
    p = state.public
    assert p.turn == 1 and p.phase == FIRST_CARD and p.table.exposed == 0
    three = ColMortoRules(players=3, dummy_exposed="after_first_card", first_lead="four_of_denari")
    led = Counter()
    for seed in range(40):
        state = new_game(three, seed=seed)
        p = state.public
        dummy = p.table.extra.dummies[0]
        led[p.turn == dummy] += 1
        assert (p.phase == FIRST_CARD) == (p.turn != dummy)
        assert p.table.exposed == (state.hands[dummy] << (40 * dummy) if p.turn == dummy else 0)
    assert led[True] and led[False]


def test_the_packets_turned_up_tell_nothing_of_the_bottom_cards_not_seen():
    """The packet form: a packet is turned up by naming its bottom card (``CALL + c``), which the table then sees.
    (Its actions were once ``PACKET + k``, the packets numbered by their bottom cards: the number in
    the public history told the other seat how the turned card ranked among bottoms it never saw.)

    Seat 0 turns up the same two packets (bottoms 25 and 35) in two deals that differ only in
    cards seat 1 never sees: the bottom of a packet that goes into seat 0's hand (5, or 30) and
    the last card under the packet of 25 (30, or 5).
    """
    from tressette_env.engine.actions import CALL
    from tressette_env.games.in_due import InDueRules

    rules = InDueRules(deal="packets")
    own = [(5, 6, 7, 8, 9), (15, 16, 17, 18, 19), (25, 26, 27, 28, 30), (35, 36, 37, 38, 39)]
    dealer = [(0, 1, 2, 3, 4), (10, 11, 12, 13, 14), (20, 21, 22, 23, 24), (29, 31, 32, 33, 34)]
    swapped = [tuple(5 if c == 30 else 30 if c == 5 else c for c in packet) for packet in own]
    states = []
    for packets in (own, swapped):
        state = new_game(rules, packets=packets + dealer, dealer=1)  # seat 0 turns up first
        for bottom in (25, 35):
            state = apply(state, CALL + bottom)
        states.append(state)
    one, two = states
    assert one.public.turn == two.public.turn == 1 and one.hands[0] != two.hands[0]
    assert one.hands[1] == two.hands[1] and one.public.table.exposed == two.public.table.exposed
    mine, theirs = message(one, 1, 1), message(two, 1, 1)
    assert mine == theirs, first_difference(mine, theirs)
    assert one.public.history == (CALL + 25, CALL + 35)
