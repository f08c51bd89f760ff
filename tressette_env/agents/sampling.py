"""Deal the cards a seat has not seen to the other seats, consistently with everything public.

A seat knows its own hand and the public state. The other hands are hidden, but the
public record constrains them:

- card counts: each seat holds a hand's tricks (ten in the four-seat game) less the cards
  it has played; the cards out of every hand and not played lie face down (Calabresella's
  monte or discards: those the viewer does not know are dealt to a pile, ``PILE``);
- cards played (``played_by``) are out of every hand;
- voids: a seat that failed to follow a suit holds none of it (``is_void``);
- signals: a busso or striscio given by seat ``s`` when leading suit ``x`` says ``s``
  kept at least one more card of ``x``; unless ``s`` has played a card of ``x`` since,
  it still holds one. With ``striscio="no_honours"`` a striscio also says that none of
  them was the 3, 2 or asso of ``x``, so ``s`` holds none of those. A volo says it was
  ``s``'s last card of ``x``: ``s`` is void in ``x`` from then on;
- cards lying face up (a dummy's hand in Tressette col morto) are in that seat's hand;
- declarations (``accusi``): the cards of a seat's declarations not yet played are in
  its hand, and, declarations being automatic, the seat's dealt hand (its played cards
  and its hand) holds exactly the combinations it declared: for a tris, the fourth card
  of the rank is not in that hand; a seat that declared nothing held no napoletana and
  no three of a kind of 3s, 2s or assi;
- a game's own record (its ``Game.card_places``): in Calabresella a monte turned up for all
  (or the called card found in it) is with the soloist or among his discards; in Tressette a
  chiamare the called card is not in the caller's hand (and is in the partner's if
  ``reveal_partner`` announced him);
- the first lead (``first_lead="four_of_denari"``, first hand of a match only): the seat
  that led the first trick was dealt the 4 di denari, so until it has played it, it still
  holds it, and no other seat can hold it.

``DealSampler(view)`` reads these constraints once; ``sample(rng)`` draws a full deal
(``(hand_0, hand_1, ...)``, a card mask per seat, the viewer's own hand included) that
meets all of them (``sample_with_pile`` gives the face-down pile's cards too). It places the forced cards first, then deals the remaining cards
one by one, the most constrained card first, each to a seat chosen at random among
those allowed to hold it (weighted by the room left in each hand), and accepts the
deal when every constraint holds, drawing again otherwise. Every consistent deal has a
positive chance to be drawn. After ``attempts`` rejected draws it falls back to a
randomised depth-first search (each hand checked as soon as it is full, or shows an
undeclared combination), which finds a
consistent deal when one exists; when none does (the view contradicts itself), or the
search passes its step limit, it raises ``InconsistentViewError``: it never loops
forever.

Example:
    >>> import random
    >>> from tressette_env.engine import new_game, view
    >>> state = new_game(seed=1)
    >>> hands = DealSampler(view(state, 0)).sample(random.Random(0))
    >>> hands[0] == state.hands[0], [h.bit_count() for h in hands]
    (True, [10, 10, 10, 10])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import BUSSO, STRISCIO, VOLO
from ..engine.cards import FOUR_OF_DENARI, HONOURS, SUIT_MASK, CardMask
from ..engine.scoring import find_accusi
from ..engine.state import SeatView
from ..engine.variant import PILE

__all__ = ["PILE", "DealSampler", "InconsistentViewError", "SeatConstraints", "face_down_known", "sample_deal"]

FULL = (1 << 40) - 1


class InconsistentViewError(ValueError):
    """No deal of the unseen cards fits the public record (the view contradicts itself)."""


class SeatConstraints:
    """What the public record says about one other seat's hidden hand (or about the face-down pile).

    Attributes:
        seat: the seat, or ``PILE`` for the face-down cards (Calabresella's monte or discards).
        count: how many cards it holds now.
        forced: cards it must hold (declared, not yet played; the 4 di denari of the first
            leader of a match under ``first_lead="four_of_denari"``, not yet played).
        allowed: cards it may hold (forced ones included): not its voids, not the
            cards a tris says it lacks, not the 4 di denari when another seat led the
            match's first trick with ``first_lead="four_of_denari"``, nothing the viewer has
            seen elsewhere.
        must_suits: suits of which it must hold at least one card (a busso or striscio
            not yet followed by a card of that suit).
        played: the cards it has played this hand.
        declared: the set of ``(kind, cards)`` of its declarations, or None when the rules
            have no declarations (then nothing is checked).
    """

    __slots__ = ("allowed", "count", "declared", "forced", "must_suits", "played", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.count = 0
        self.forced: CardMask = 0
        self.allowed: CardMask = FULL
        self.must_suits: list[int] = []
        self.played: CardMask = 0
        self.declared: frozenset[tuple[str, int]] | None = None

    def accepts(self, hand: CardMask) -> bool:
        """Whether ``hand`` meets every constraint of this seat."""
        if hand.bit_count() != self.count or hand & self.forced != self.forced or hand & ~self.allowed:
            return False
        for suit in self.must_suits:
            if not hand & SUIT_MASK[suit]:
                return False
        if self.declared is not None:
            found = frozenset((a.kind, a.cards) for a in find_accusi(hand | self.played))
            if found != self.declared:
                return False
        return True

    def may_grow(self, partial: CardMask) -> bool:
        """Whether cards can be added to ``partial`` (a part of the hand) to meet the declarations.

        Adding cards never removes a napoletana, and turns a tris into a quattro only:
        a combination in ``partial`` that is not declared (and not part of a declared
        quattro) rules every completion out.
        """
        if self.declared is None:
            return True
        for a in find_accusi(partial | self.played):
            if (a.kind, a.cards) in self.declared:
                continue
            if a.kind == "tris" and any(k == "quattro" and c & a.cards == a.cards for k, c in self.declared):
                continue
            return False
        return True

    def __repr__(self) -> str:
        return (
            f"SeatConstraints(seat={self.seat}, count={self.count}, forced={self.forced:#x}, "
            f"allowed={self.allowed:#x}, must_suits={self.must_suits})"
        )


def _constraints(view: SeatView, known_down: CardMask) -> tuple[list[SeatConstraints], CardMask]:
    """The constraints on the other seats (and on a face-down pile, ``PILE``, last), and the cards to deal among them.

    ``known_down``: the face-down cards the viewer knows lie there (``face_down_known``).
    """
    p = view.public
    me = view.seat
    n = p.table.seats
    seats = {s: SeatConstraints(s) for s in range(n) if s != me}
    for s, c in seats.items():
        c.played = p.played_by(s)
        c.count = p.table.tricks - c.played.bit_count()
        for suit in range(4):
            if p.is_void(s, suit):
                c.allowed &= ~SUIT_MASK[suit]
    # Signals: walk the tricks; a busso/striscio needs a card of the suit after that lead.
    tricks = p.tricks()
    for i, (leader, cards, actions) in enumerate(tricks):
        if not actions or leader == me:
            continue
        signal = actions[0] // 40
        suit = cards[0] // 10
        c = seats[leader]
        if signal == VOLO:
            c.allowed &= ~SUIT_MASK[suit]
        elif signal in (BUSSO, STRISCIO):
            if signal == STRISCIO and p.table.narrow_striscio:
                c.allowed &= ~HONOURS[suit]  # it kept no 3, 2 or asso of the suit
            later = 0
            for lead2, cards2, _ in tricks[i + 1 :]:
                for k, card in enumerate(cards2):
                    if (lead2 + k) % n == leader:
                        later |= 1 << card
            if not later & SUIT_MASK[suit] and suit not in c.must_suits:
                c.must_suits.append(suit)
    # Declarations: the revealed cards not yet played are in the declarer's hand.
    unseen = view.unseen | (view.private & ~known_down)  # face-down cards it saw that may have moved
    if getattr(p.rules, "accusi", False):  # the games of the family without declarations have no such switch
        for s, c in seats.items():
            declared = p.accusi.by_seat[s]
            c.declared = frozenset((a.kind, a.cards) for a in declared)
            for a in declared:
                c.forced |= a.cards & ~c.played
                if a.kind == "tris":
                    rank = (a.cards & -a.cards).bit_length() - 1
                    rank %= 10
                    missing = sum(1 << (10 * suit + rank) for suit in range(4)) & ~a.cards
                    c.allowed &= ~missing
    # The first lead: in the first hand of a match the holder of the 4 di denari leads (later
    # hands, the seat after the dealer), so the first leader holds it until it plays it.
    # A game without that switch has no such inference.
    if getattr(p.rules, "first_lead", None) == "four_of_denari" and p.hand_number == 0:
        four = 1 << FOUR_OF_DENARI
        for s, c in seats.items():
            if s != p.first_leader:
                c.allowed &= ~four
            elif not c.played & four:
                c.forced |= four
    # Cards lying face up (a dummy's hand in col morto, a card handed over in Calabresella) are where everyone sees
    # them, but those the game says may since have gone face down (``Game.exposed_face_down``): dealt to the
    # seat or the face-down pile.
    may_be_down = p.rules.game.exposed_face_down(p) & ~view.hand & ~view.private & ~p.all_played
    for s, c in seats.items():
        c.forced |= p.exposed_by(s) & ~may_be_down
    unseen |= may_be_down
    # Cards out of every hand and not played lie face down (Calabresella's monte or discards): those the
    # viewer does not know are dealt to a pile too.
    held = view.hand.bit_count() + sum(c.count for c in seats.values())
    pile = SeatConstraints(PILE)
    pile.count = 40 - held - p.all_played.bit_count() - known_down.bit_count()
    if pile.count:
        seats[PILE] = pile
    _game_constraints(view, seats, known_down)
    for c in seats.values():
        c.allowed &= unseen | c.forced
    return [seats[s] for s in sorted(seats, key=lambda s: (s == PILE, s))], unseen


def _game_constraints(view: SeatView, seats: dict[int, SeatConstraints], known_down: CardMask) -> None:
    """What a game's own public record says about where cards are (its ``Game.card_places``).

    Each ``(seat, must, cannot)`` the game gives adds ``must`` to the seat's forced cards and
    takes ``cannot`` from its allowed ones. The games that say something:

    | game | record | constraint |
    | --- | --- | --- |
    | Calabresella | the monte turned up for all (``monte_shown``), the called card found in it, or handed to the soloist (once the card play begins: ``Game.exposed_face_down``) | with the soloist or among his face-down discards (but a card he returned face up) |
    | Calabresella, scegliete | the monte as the first opponent saw it, once the second has exchanged | in the monte or the second opponent's hand (``face_down_known``) |
    | Tressette a chiamare | the called card, not yet played | not in the caller's hand (unless ``allow_self_call``); in the announced partner's (``reveal_partner``) |
    """
    for seat, must, cannot in view.public.rules.game.card_places(view, tuple(seats), known_down):
        c = seats[seat]
        c.forced |= must
        c.allowed &= ~cannot


def face_down_known(view: SeatView) -> CardMask:
    """The face-down cards the viewer knows lie there still (its game's ``Game.face_down_known``).

    Its ``private`` cards, but in Calabresella's solissimo scegliete: there the first opponent
    saw the monte, and the second then swapped cards with it unseen: from the second
    opponent's turn on, each card the first saw there is in the monte or in the second
    opponent's hand, and the first knows none of them to be face down.
    """
    return view.public.rules.game.face_down_known(view)


class DealSampler:
    """Draws full deals consistent with one seat's view (see the module docstring).

    Args:
        view: the seat's view (its hand and the public state). Nothing else is read.
        attempts: rejected random draws before the exhaustive fallback search.

    Raises:
        InconsistentViewError: (from ``sample``) no deal fits the view.
    """

    def __init__(self, view: SeatView, attempts: int = 2000) -> None:
        self.view = view
        self.attempts = attempts
        self.known_down = face_down_known(view)
        """The face-down cards the viewer knows lie there (``face_down_known``): in every deal's pile."""
        self.seats, self.unseen = _constraints(view, self.known_down)
        forced = 0
        for c in self.seats:
            forced |= c.forced
        self.free = self.unseen & ~forced  # the cards to deal at random
        for c in self.seats:
            if c.forced & ~c.allowed or c.forced.bit_count() > c.count:
                raise InconsistentViewError(
                    f"{'the face-down pile' if c.seat == PILE else f'seat {c.seat}'}'s forced cards (declared, exposed, "
                    f"the called card or the 4 di denari) contradict the record: {c!r}"
                )
        need = sum(c.count - c.forced.bit_count() for c in self.seats)
        if need != self.free.bit_count():
            raise InconsistentViewError(
                f"{self.free.bit_count()} unseen cards for {need} places in the other hands: the view is inconsistent"
            )
        # Each free card's possible holders, most constrained cards first.
        self.cards: list[tuple[int, tuple[int, ...]]] = []
        for card in range(40):
            if self.free >> card & 1:
                holders = tuple(i for i, c in enumerate(self.seats) if c.allowed >> card & 1)
                if not holders:
                    raise InconsistentViewError(f"card {card} is unseen but no other seat may hold it")
                self.cards.append((card, holders))
        self.cards.sort(key=lambda item: len(item[1]))

    def _hands(self, dealt: Sequence[CardMask]) -> tuple[tuple[CardMask, ...], CardMask]:
        """The hands by seat (the viewer's own included) and the face-down pile's cards (the viewer's known ones too)."""
        out = [0] * self.view.public.table.seats
        out[self.view.seat] = self.view.hand
        pile = self.known_down
        for c, hand in zip(self.seats, dealt, strict=True):
            if c.seat == PILE:
                pile |= hand
            else:
                out[c.seat] = hand
        return tuple(out), pile

    def _draw(self, rng: random.Random) -> list[CardMask] | None:
        """One random deal of the free cards, or None at a dead end."""
        seats = self.seats
        hands = [c.forced for c in seats]
        room = [c.count - c.forced.bit_count() for c in seats]
        order = self.cards
        # Shuffle within groups of equal freedom, keeping the most constrained first.
        shuffled = sorted(order, key=lambda item: (len(item[1]), rng.random()))
        for card, holders in shuffled:
            total = 0
            for i in holders:
                total += room[i]
            if not total:
                return None
            pick = rng.random() * total
            for i in holders:
                pick -= room[i]
                if pick < 0 and room[i]:
                    break
            else:
                i = next(i for i in reversed(holders) if room[i])
            hands[i] |= 1 << card
            room[i] -= 1
        return hands

    def _search(self, rng: random.Random, limit: int = 200_000) -> list[CardMask] | None:
        """A randomised depth-first search for a consistent deal (None when there is none).

        A hand is checked as soon as it is full, a part of a hand as soon as it shows a
        combination that was not declared, and a suit a seat must hold as soon as none
        of it is left for that seat. The search gives up (None) after ``limit``
        placements, so that it always ends.
        """
        seats = self.seats
        hands = [c.forced for c in seats]
        room = [c.count - c.forced.bit_count() for c in seats]
        order = sorted(self.cards, key=lambda item: (len(item[1]), rng.random()))
        left = [0] * (len(order) + 1)  # left[k]: the cards order[k:] still to place
        for k in range(len(order) - 1, -1, -1):
            left[k] = left[k + 1] | 1 << order[k][0]
        steps = [0]

        def feasible(k: int) -> bool:
            """Every suit a seat must hold is in its hand or still to come to it."""
            for i, c in enumerate(seats):
                for suit in c.must_suits:
                    if not (hands[i] | left[k] & c.allowed) & SUIT_MASK[suit]:
                        return False
            return True

        def place(k: int) -> bool:
            if k == len(order):
                return all(c.accepts(h) for c, h in zip(seats, hands, strict=True))
            card, holders = order[k]
            choices = [i for i in holders if room[i]]
            rng.shuffle(choices)
            for i in choices:
                steps[0] += 1
                if steps[0] > limit:
                    return False
                hands[i] |= 1 << card
                room[i] -= 1
                ok = seats[i].may_grow(hands[i]) if room[i] else seats[i].accepts(hands[i])
                if ok and feasible(k + 1) and place(k + 1):
                    return True
                hands[i] ^= 1 << card
                room[i] += 1
            return False

        return hands if place(0) else None

    def sample(self, rng: random.Random) -> tuple[CardMask, ...]:
        """A full deal (a card mask by seat) consistent with the view, drawn with ``rng``."""
        return self.sample_with_pile(rng)[0]

    def sample_with_pile(self, rng: random.Random) -> tuple[tuple[CardMask, ...], CardMask]:
        """``sample``'s deal and the cards face down out of every hand in it (Calabresella's; 0 elsewhere)."""
        seats = self.seats
        for _ in range(self.attempts):
            dealt = self._draw(rng)
            if dealt is not None and all(c.accepts(h) for c, h in zip(seats, dealt, strict=True)):
                return self._hands(dealt)
        dealt = self._search(rng)
        if dealt is None:
            raise InconsistentViewError(
                f"no deal of the {self.free.bit_count()} unseen cards fits the public record of seat "
                f"{self.view.seat}'s view (after {self.attempts} random draws and a bounded exhaustive "
                f"search): {seats!r}"
            )
        return self._hands(dealt)


def sample_deal(view: SeatView, rng: random.Random) -> tuple[CardMask, ...]:
    """One deal consistent with ``view`` (``DealSampler(view).sample(rng)``)."""
    return DealSampler(view).sample(rng)
