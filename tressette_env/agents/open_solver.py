"""Exact card play with every hand open, for any number of seats and two sides.

``solve_open(hands, leader, trick, taken, sides)`` is the value of a position when
every hand is known and both sides play perfectly: each side's thirds at the end of the
hand. ``open_moves`` gives the value of each legal card of the seat on turn. The four-seat
game's double-dummy solver (``solver``) is far faster on four seats; this one serves the
other tables of the family (Tressette in due's endgame; Calabresella's and Tressette a
chiamare's endings in the search player, with ``last_trick`` counting the cards that lie
face down for the last trick's winner) and is the reference the four-seat solver is tested
against.

Two seats on opposite sides (Tressette in due) run ``best_open_move`` compiled by numba when
it is installed (``open_solver_two``: the same search, pinned to this one by
``tests/agents/test_open_solver_two.py``; ``compiled_two_seats()`` says whether it runs);
everything else, and everything without numba, runs here.

How it searches (pure Python, standard library only): zero-window alpha-beta probes that
bisect the range of values, a table of bounds at trick boundaries (the value of the rest of
the hand does not depend on the thirds taken so far, only on the hands and the leader),
masters first on the lead and the cheapest winner first when following, the whole rest to
a leader who holds only masters, and equivalent
cards (two cards of one hand of the same suit and point value, with no card between them in
taking power in any other hand or on the table) searched once. Its memory has a ceiling: the
table (one for every search) and the cache of equivalent cards are emptied when full, at
262,144 and 65,536 entries, about 50 MB together (``_TABLE_LIMIT``, ``_REPS_LIMIT``).

Example:
    >>> from tressette_env.engine import parse_cards
    >>> hands = [parse_cards("3d Ad"), parse_cards("2d 4c")]  # two seats, two tricks
    >>> solve_open(hands, leader=0, sides=(0, 1))  # the 3 draws the 2, the asso takes the last: all 8
    (8, 0)
    >>> open_moves(hands, leader=0, sides=(0, 1))
    {0: 0, 2: 8}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from ..engine.scoring import LAST_TRICK_THIRDS
from ..engine.tricks import winning_position

__all__ = ["best_open_move", "open_moves", "solve_open"]


LAST_TRICK_LIMIT = 1000
"""The most ``last_trick`` may be: far above any rule's (the 3 of the rules and the thirds of every
card lying face down, 38 at most), and low enough for the searches' integers (values stay under
their 2**20 sentinel; the compiled search's table keys keep it in 22 bits)."""


def _position(hands: Sequence[int], leader: int, trick: Sequence[int], sides: Sequence[int], last: int) -> int:
    """Check a position; return the thirds still in play (cards in the hands and on the table, and the last trick's ``last``)."""
    n = len(hands)
    if len(sides) != n or n < 2:
        raise ValueError(
            f"hands and sides are one per seat (2 or more seats); got {len(hands)} hands, {len(sides)} sides"
        )
    if set(sides) - {0, 1}:
        raise ValueError(f"sides are 0 or 1 (two sides); got {tuple(sides)}")
    if not 0 <= leader < n or len(trick) >= n:
        raise ValueError(f"leader must be a seat 0..{n - 1} and the trick hold fewer than {n} cards")
    seen = 0
    for seat, h in enumerate(hands):
        if not isinstance(h, int) or h < 0 or h >> 40 or seen & h:
            raise ValueError(f"hand {seat} is not a 40-bit card mask apart from the others")
        seen |= h
    for c in trick:
        if not 0 <= c < 40 or seen >> c & 1:
            raise ValueError(f"card {c!r} on the table is not a card id, or is also held")
        seen |= 1 << c
    counts = {hands[(leader + i) % n].bit_count() + (i < len(trick)) for i in range(n)}
    if len(counts) != 1:
        raise ValueError(
            "the hands do not fit the trick: each seat must hold, with its card on the table, as many cards"
        )
    if isinstance(last, bool) or not isinstance(last, int) or not 0 <= last <= LAST_TRICK_LIMIT:
        raise ValueError(
            f"last_trick is the thirds the last trick takes besides its cards, an int 0..{LAST_TRICK_LIMIT}; got {last!r}"
        )
    return sum(THIRDS[c] for c in cards_of(seen)) + (last if seen else 0)


_HIGHER = tuple(
    sum(1 << o for o in range(10 * (c // 10), 10 * (c // 10) + 10) if STRENGTH[o] > STRENGTH[c]) for c in range(40)
)
"""The cards of ``c``'s suit that beat it."""
_WEAKEST = tuple(
    tuple(min((10 * s + b for b in range(10) if f >> b & 1), key=STRENGTH.__getitem__, default=0) for f in range(1024))
    for s in range(4)
)
"""``_WEAKEST[suit][field]``: the weakest card of a suit's 10-bit field (bit b: card 10 * suit + b)."""
_REPS_LIMIT = 1 << 16
"""The ceiling of ``_REPS``: 65,536 entries, about 14 MB (tracemalloc: 13.2 MiB when full, 212
bytes an entry); it is emptied when full and a new key comes. Its keys are a suit's cards and
rivals, which never share a card (4 * 3 ** 10 = 236,196 keys at most); a thousand deals of
Tressette in due against the heuristic use about 60,000."""
_REPS: dict[tuple[int, int], tuple[int, ...]] = {}


def _reps(cards: int, rivals: int) -> tuple[int, ...]:
    """One card of each run of equivalent cards among ``cards`` (one suit), weakest first.

    ``rivals`` are the suit's other cards in play: two of ``cards`` of the same point value
    with no rival between them in taking power are interchangeable.
    """
    key = (cards, rivals)
    out = _REPS.get(key)
    if out is None:
        ordered = sorted(cards_of(cards), key=STRENGTH.__getitem__)
        reps: list[int] = []
        for card in ordered:
            if (
                reps
                and THIRDS[card] == THIRDS[reps[-1]]
                and not rivals & _HIGHER[reps[-1]] & ~_HIGHER[card] & ~(1 << card)
            ):
                continue  # no rival between the last one kept and this one: the same card
            reps.append(card)
        if len(_REPS) >= _REPS_LIMIT:
            _REPS.clear()
        out = _REPS[key] = tuple(reps)
    return out


def _moves(hand: int, led: int | None, others: int) -> list[int]:
    """The legal cards of ``hand``, one of each run of equivalent cards (``others``: every other card in play)."""
    legal = hand & SUIT_MASK[led] if led is not None else 0
    legal = legal or hand
    out: list[int] = []
    for suit_mask in SUIT_MASK:
        cards = legal & suit_mask
        if cards:
            out += _reps(cards, others & suit_mask)
    return out


_TABLE_LIMIT = 1 << 18
"""The ceiling of ``_TABLE``: 262,144 entries, about 36 MB with two hands in a key and 46 MB with
five (tracemalloc: 138 and 176 bytes an entry, 34.5 and 44 MiB when full); it is emptied when
full and a new position comes, in the middle of a search too (the table only saves work). A
deal of Tressette in due's endgame stores about 4,000 positions."""
_TABLE: dict[int, tuple[int, int]] = {}
"""The table of bounds every search shares, by position (see ``_Open.boundary``): positions recur
from one decision of a hand to the next."""


class _Open:
    """One search: alpha-beta over the card play, the table of bounds ``_TABLE`` at trick boundaries."""

    def __init__(self, sides: Sequence[int], last: int = LAST_TRICK_THIRDS) -> None:
        self.sides = tuple(sides)
        self.n = len(sides)
        self.table = _TABLE
        self.last = last
        """Thirds the last trick takes besides its cards."""
        n = self.n
        sides_bits = sum(side << seat for seat, side in enumerate(self.sides))
        self.prefix = (last << (n + 1) | 1 << n | sides_bits) << (n - 1).bit_length()
        """The table key's high bits: ``last``, the sides (a bit a seat, above them a bit that
        tells their number) and room for the leader; the hands (40 bits each) come below."""

    def boundary(self, hands: list[int], leader: int, alpha: int, beta: int, present: int, rem: int) -> int:
        """Side 0's thirds from the rest of the hand, ``leader`` to lead (a fail-soft bound outside (alpha, beta)).

        ``present``: the cards still in the hands; ``rem``: their thirds and the last trick's 3.
        """
        if not present:
            return 0
        key = self.prefix | leader
        for h in hands:
            key = key << 40 | h
        table = self.table
        entry = table.get(key)
        if entry is None:
            lead_hand = hands[leader]
            others = present & ~lead_hand
            for suit in range(4):  # a suit's weakest card of the leader is beaten by none of the others
                field = lead_hand >> (10 * suit) & 1023
                if field and others & _HIGHER[_WEAKEST[suit][field]]:
                    break
            else:
                # Every card of the leader is the best of its suit: it keeps the lead and takes every trick.
                value = rem if self.sides[leader] == 0 else 0
                if len(table) >= _TABLE_LIMIT:
                    table.clear()
                table[key] = (value, value)
                return value
            entry = (0, rem)
        low, high = entry
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        a, b = max(alpha, low), min(beta, high)
        if self.n == 2:
            value = self.two(hands, leader, a, b, present, rem)
        else:
            value = self.inside(hands, leader, [], a, b, present, rem)
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = high = value
        if len(table) >= _TABLE_LIMIT:
            table.clear()
        table[key] = (low, high)
        return value

    def inside(
        self, hands: list[int], leader: int, trick: list[int], alpha: int, beta: int, present: int, rem: int
    ) -> int:
        """Side 0's thirds from inside a trick (``trick``: the cards on the table, ``present``: those in hands)."""
        n = self.n
        sides = self.sides
        seat = (leader + len(trick)) % n
        maximise = sides[seat] == 0
        hand = hands[seat]
        best = -1 if maximise else 1 << 20
        for card in self._ordered(hand, trick, leader, present & ~hand):
            bit = 1 << card
            hands[seat] = hand ^ bit
            played = [*trick, card]
            if len(played) < n:
                value = self.inside(hands, leader, played, alpha, beta, present ^ bit, rem)
            else:
                winner = (leader + winning_position(played)) % n
                taken = 0
                for c in played:
                    taken += THIRDS[c]
                left = present ^ bit
                if not left:  # the last trick
                    taken += self.last
                gain = taken if sides[winner] == 0 else 0
                value = gain + self.boundary(hands, winner, alpha - gain, beta - gain, left, rem - taken)
            hands[seat] = hand
            if maximise:
                if value > best:
                    best = value
                    if best >= beta:
                        break
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best <= alpha:
                    break
                if best < beta:
                    beta = best
        return best

    def two(self, hands: list[int], leader: int, alpha: int, beta: int, present: int, rem: int) -> int:
        """``inside`` at a trick boundary for two seats, the follower's replies in the same loop (faster)."""
        follower = 1 - leader
        lead_hand, follow_hand = hands[leader], hands[follower]
        leader_max = self.sides[leader] == 0
        best = -1 if leader_max else 1 << 20
        for lead in self._ordered(lead_hand, [], leader, present & ~lead_hand):
            lead_bit = 1 << lead
            suit = SUIT_MASK[lead // 10]
            rest = present ^ lead_bit
            beaters = _HIGHER[lead]
            follow = follow_hand & suit
            replies = _moves(follow or follow_hand, None, rest & ~follow_hand | lead_bit)
            if follow:  # the cheapest winner first, then the cheapest cards
                replies = [c for c in replies if beaters >> c & 1] + [c for c in replies if not beaters >> c & 1]
            hands[leader] = lead_hand ^ lead_bit
            a, b = alpha, beta
            reply_best = 1 << 20 if leader_max else -1
            for reply in replies:
                bit = 1 << reply
                left = rest ^ bit
                taken = THIRDS[lead] + THIRDS[reply] + (0 if left else self.last)
                winner = follower if beaters >> reply & 1 else leader
                gain = taken if self.sides[winner] == 0 else 0
                hands[follower] = follow_hand ^ bit
                value = gain + self.boundary(hands, winner, a - gain, b - gain, left, rem - taken)
                hands[follower] = follow_hand
                if leader_max:  # the follower minimises
                    if value < reply_best:
                        reply_best = value
                        if value <= a:
                            break
                        if value < b:
                            b = value
                elif value > reply_best:
                    reply_best = value
                    if value >= b:
                        break
                    if value > a:
                        a = value
            hands[leader] = lead_hand
            if leader_max:
                if reply_best > best:
                    best = reply_best
                    if best >= beta:
                        break
                    if best > alpha:
                        alpha = best
            elif reply_best < best:
                best = reply_best
                if best <= alpha:
                    break
                if best < beta:
                    beta = best
        return best

    def _ordered(self, hand: int, trick: list[int], leader: int, others: int) -> list[int]:
        """The moves to search, the likely best first: masters on the lead; following, the cheapest winner."""
        if not trick:
            moves = _moves(hand, None, others)
            masters = [c for c in moves if not others & _HIGHER[c]]
            if not masters:
                return moves
            return masters[::-1] + [c for c in moves if others & _HIGHER[c]]
        for c in trick:  # the cards on the table separate runs too
            others |= 1 << c
        moves = _moves(hand, trick[0] // 10, others)
        w = winning_position(trick)
        top = trick[w]
        n = self.n
        if self.sides[(leader + w) % n] == self.sides[(leader + len(trick)) % n]:
            return sorted(moves, key=lambda c: -THIRDS[c])  # give points to a partner who is winning
        beaters = [c for c in moves if _HIGHER[top] >> c & 1]  # weakest first, as _moves gives them
        if not beaters:
            return sorted(moves, key=lambda c: THIRDS[c])
        return beaters + sorted((c for c in moves if not _HIGHER[top] >> c & 1), key=lambda c: THIRDS[c])


def _search(sides: Sequence[int], last: int) -> _Open:
    """A search for these sides, ``last`` the thirds the last trick takes besides its cards (``_TABLE`` lives on)."""
    return _Open(sides, last)


def _value(search: _Open, hands: list[int], leader: int, trick: list[int], remaining: int) -> int:
    """Side 0's exact thirds from a position: probes of a zero-width window bisect 0..remaining."""
    present = 0
    for h in hands:
        present |= h
    low, high = 0, remaining
    while low < high:
        need = (low + high + 1) // 2
        if trick:
            v = search.inside(hands, leader, trick, need - 1, need, present, remaining)
        else:
            v = search.boundary(hands, leader, need - 1, need, present, remaining)
        if v >= need:
            low = v
        else:
            high = v
    return low


def solve_open(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: Sequence[int] = (0, 0),
    *,
    sides: Sequence[int],
    last_trick: int = LAST_TRICK_THIRDS,
) -> tuple[int, int]:
    """Each side's thirds at the end of the hand under perfect play with every hand open.

    Args:
        hands: one card mask per seat (the cards each holds now).
        leader: the seat that led the current trick (or leads the next).
        trick: the cards on the table in play order.
        taken: thirds each side has taken already.
        sides: each seat's side, 0 or 1.
        last_trick: thirds the last trick takes besides its cards: the 3 of the rules, plus
            those of cards lying face down for its winner (Calabresella's discards or monte).
    """
    remaining = _position(hands, leader, trick, sides, last_trick)
    value = _value(_search(sides, last_trick), list(hands), leader, list(trick), remaining) if remaining else 0
    return taken[0] + value, taken[1] + remaining - value


def open_moves(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: Sequence[int] = (0, 0),
    *,
    sides: Sequence[int],
    last_trick: int = LAST_TRICK_THIRDS,
) -> dict[int, int]:
    """``{card: thirds}``: for each legal card of the seat on turn, its side's thirds at the end under perfect play.

    The arguments are ``solve_open``'s.
    """
    remaining = _position(hands, leader, trick, sides, last_trick)
    last = last_trick
    n = len(hands)
    seat = (leader + len(trick)) % n
    side = sides[seat]
    search = _search(sides, last)
    work = list(hands)
    hand = work[seat]
    legal = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    legal = legal or hand
    out = {}
    for card in cards_of(legal):
        work[seat] = hand ^ (1 << card)
        played = [*trick, card]
        if len(played) < n:
            value = _value(search, work, leader, played, remaining)
        else:
            winner = (leader + winning_position(played)) % n
            gain = sum(THIRDS[c] for c in played) + (last if not work[winner] else 0)
            rest = _value(search, work, winner, [], remaining - gain) if work[winner] else 0
            value = (gain if sides[winner] == 0 else 0) + rest
        work[seat] = hand
        mine = value if side == 0 else remaining - value
        out[card] = taken[side] + mine
    return out


USE_COMPILED = True
"""Whether ``best_open_move`` for two seats runs ``open_solver_two``'s compiled search when numba is there."""


def compiled_two_seats() -> Any:
    """The compiled search of two seats on opposite sides (Tressette in due), or None.

    The ``open_solver_two`` module when numba is installed and ``USE_COMPILED`` is on (numba is
    imported on the first call), else None. ``best_open_move`` asks it for each search of two
    opposite seats; the batched in due heuristic asks it whether to search every deal in one
    compiled call (``open_solver_two.best_moves``) or deal by deal with ``best_open_move``.
    """
    if not USE_COMPILED:
        return None
    from . import open_solver_two

    return open_solver_two if open_solver_two.COMPILED else None


def best_open_move(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    *,
    sides: Sequence[int],
    prefer: Callable[[int], Any] | None = None,
    least: bool = False,
    last_trick: int = LAST_TRICK_THIRDS,
) -> int:
    """The legal card of the seat on turn that is best for its side (the fewest thirds with ``least``).

    Of cards of equal value the one ``prefer`` ranks first (default: lowest id) is chosen.
    Faster than ``open_moves`` when only the choice is wanted: the first card is valued
    exactly, then each other card is only asked whether it does better (a zero-width probe).
    Two seats on opposite sides (Tressette in due) run the same search compiled by numba
    when it is installed (``open_solver_two``; ``USE_COMPILED = False`` turns it off).

    Raises:
        ValueError: a bad position (``_position``'s errors), or the seat on turn holds no card.
    """
    remaining = _position(hands, leader, trick, sides, last_trick)
    n = len(hands)
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    legal = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    legal = legal or hand
    if not legal:
        raise ValueError("the seat on turn holds no card: the hand is over, nothing to choose")
    two = compiled_two_seats() if n == 2 and sides[0] != sides[1] else None
    if two is not None:  # two seats on opposite sides: the same search, compiled (``open_solver_two``)
        cards = sorted(cards_of(legal), key=prefer or (lambda c: c))
        return two.best_move(hands, leader, trick, cards, side_of_seat0=sides[0], least=least, last_trick=last_trick)
    search = _search(sides, last_trick)
    work = list(hands)
    present = 0
    for h in work:
        present |= h
    # Side 0's thirds after each card: the seat's side maximises it (side 1 minimises), or the reverse with least.
    maximise = (sides[seat] == 0) != least

    def after(card: int, alpha: int, beta: int) -> int:
        bit = 1 << card
        work[seat] = hand ^ bit
        played = [*trick, card]
        rest = present ^ bit
        if len(played) < n:
            value = search.inside(work, leader, played, alpha, beta, rest, remaining)
        else:
            winner = (leader + winning_position(played)) % n
            taken = sum(THIRDS[c] for c in played) + (last_trick if not rest else 0)
            gain = taken if sides[winner] == 0 else 0
            value = gain + search.boundary(work, winner, alpha - gain, beta - gain, rest, remaining - taken)
        work[seat] = hand
        return value

    def better(card: int, than: int) -> bool:
        return after(card, than, than + 1) > than if maximise else after(card, than - 1, than) < than

    # In the preferred order: of cards as good as one before them, the first stays chosen.
    cards = sorted(cards_of(legal), key=prefer or (lambda c: c))
    best_card = cards[0]
    best = after(best_card, -1, remaining + 1)  # its exact value: one search with the whole window
    for card in cards[1:]:
        if better(card, best):
            best_card, best = card, after(card, -1, remaining + 1)
    return best_card
