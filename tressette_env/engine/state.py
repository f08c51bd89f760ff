"""The game state of every game of the family: the table, what everyone sees, the full deal, one seat's view.

``Table`` is how a hand is seated (how many seats, which side each seat plays for, which
agent plays each seat, who may signal); ``PublicState`` is what every seat knows,
``GameState`` adds the hidden hands (and a game's hidden extras, such as the stock),
``SeatView`` is one seat's hand with the public state.

States are immutable records (``NamedTuple``): ``game.apply`` returns a new one
and never changes its argument, so keeping, comparing and hashing states is
free. Sets of cards are 40-bit card masks (see ``cards``). Facts about every
seat are packed into one int with a fixed-width block per absolute seat, seat
0 in the lowest bits, so that turning the table to an observer's point of view
is one bit rotation (``rotate_seats``):

    played    N blocks of 40 bits   cards each seat has played this hand
    exposed   N blocks of 40 bits   cards lying face up in each seat's hand (a dummy, shown draws)
    accusi.revealed  N blocks of 40 bits   cards each seat's declarations revealed
    signals   N blocks of 12 bits   bit 3*suit + (signal - 1): busso, striscio, volo given in that suit
    voids     N blocks of 4 bits    bit suit: the seat has shown it holds no hidden card of that suit

Seats are 0..N-1 and play goes from seat i to seat i+1 (mod N). In the four-seat game
N = 4 and team = seat % 2; every game sets its sides in ``Table.sides``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CardMask
from .rules import Rules
from .scoring import Declarations, HandScore
from .tricks import trick_winner, winning_position

Seat = int
"""A seat, 0..N-1 (in the four-seat game partners sit opposite: team = seat % 2)."""

PLAYING, HAND_OVER, GAME_OVER = 0, 1, 2
"""``PublicState.status``: the hand is being played (a seat is to act: see ``phase``); a
hand of a match is over and the next must be dealt (``game.next_hand``); the episode is
over (the hand in ``episode="hand"``, the match in ``episode="match"``)."""

PLAY = 0
"""``PublicState.phase`` of the card play. Games with other phases (choosing packets,
an auction...) number them from 1; the phase of a game that only plays cards is always 0."""

_M40 = (1 << 40) - 1
FIXED_FIELDS = 10
"""``PublicState[:FIXED_FIELDS]``: the fields a card play leaves as they are."""
TRICK_FIELDS = 13
"""``PublicState[:TRICK_FIELDS]``: the fields a card play that does not end a trick leaves as they are."""


def rotate_seats(packed: int, seat: Seat, block: int, seats: int = 4) -> int:
    """Turn a ``seats``-block packed int so that block 0 is ``seat``, block 1 the next seat, and so on."""
    shift = block * seat
    return ((packed >> shift) | (packed << (seats * block - shift))) & ((1 << (seats * block)) - 1)


class Table(NamedTuple):
    """How a hand is seated and played, and what only its game changes: constant through the card play.

    The card play (``game.apply``) reads it and passes it on unchanged; a game replaces it
    when its own phase changes, when cards are put face up or when its public record
    changes (a draw from the stock, say).
    """

    seats: int
    """Seats at the table, dummies included (2 to 8)."""
    tricks: int
    """Tricks in a hand; the last one is worth 3 thirds more."""
    sides: tuple[int, ...]
    """The side of each seat: the seats whose captured cards are pooled for scoring."""
    controllers: tuple[int, ...]
    """The agent that plays each seat (a live player plays a dummy's seat in its turn)."""
    seat_of: tuple[int, ...]
    """Each agent's own seat (the one whose hand it holds)."""
    signal_seats: int = 0
    """Bit ``s``: seat ``s`` may signal when it leads (0: no signals in this game or rule set)."""
    signals_from: int = 0
    """The first trick (0-based) on which a leader may signal."""
    signal_kinds: int = 0b111
    """Bit ``k - 1``: signal ``k`` (1 busso, 2 striscio, 3 volo) is one of the game's signs."""
    narrow_striscio: bool = False
    """Striscio only when the leader keeps no 3, 2 or asso of the suit (``striscio="no_honours"``)."""
    calling_out: bool = False
    """The seat on lead may claim the match (chiamarsi fuori)."""
    must_follow: bool = True
    """A seat that holds the led suit must play it. ``legal_mask_for`` always follows suit: a game
    that lifts the rule (Tressette in due while the stock lasts) gives the legal actions of its own phase."""
    phase: int = 0
    """``PLAY``, or the game's own phase (``PublicState.phase``)."""
    exposed: int = 0
    """Cards put face up in each seat's hand this hand, by seat (N blocks of 40 bits): a dummy's,
    shown draws. They stay marked once played; ``PublicState.exposed_by`` gives those still held."""
    extra: Any = None
    """The game's own public record (the stock's size, the packets...); None in the four-seat game."""

    @property
    def sides_count(self) -> int:
        """How many sides there are."""
        return max(self.sides) + 1


class PublicState(NamedTuple):
    """Everything every seat at the table knows.

    The fields come in three groups, so that ``game.apply`` can copy what a play leaves
    unchanged as one slice: those fixed for the hand (up to ``table``), those that change
    with each trick (``leader`` to ``thirds``), those that change with each card (``turn``
    to ``history``). Keep the order.
    """

    rules: Rules
    """The game's rule switches (``Rules`` for the four-seat game; each game has its own record)."""
    status: int
    """PLAYING, HAND_OVER or GAME_OVER."""
    dealer: Seat
    first_leader: Seat
    """The seat that led the first trick of this hand."""
    accusi: Declarations
    """The declarations of this hand (none without ``accusi``); public once declared."""
    match_score: tuple[int, ...]
    """Each competitor's points over the hands finished so far in this episode (teams in the
    four-seat game, players in the others)."""
    hand_number: int
    """0 for the first hand of the episode, then 1, 2, ..."""
    result: HandScore | None
    """The score of this hand once it is over."""
    winner: int | None
    """The competitor that won the match (``episode="match"``), once decided."""
    table: Table
    """How this hand is seated and played (its phase, the cards face up, the game's record included)."""
    leader: Seat
    """The seat that led (or will lead) the current trick."""
    tricks_done: int
    """Completed tricks of this hand."""
    thirds: tuple[int, ...]
    """Thirds each side has taken this hand (the last trick's 3 included once taken)."""
    turn: Seat
    """The seat to act; -1 when nobody is to act."""
    trick: tuple[int, ...]
    """Cards on the table in play order; card i was played by seat (leader + i) % N."""
    played: int
    """Cards played this hand, by seat (N blocks of 40 bits)."""
    signals: int
    """Signals given this hand, by seat (N blocks of 12 bits)."""
    voids: int
    """Suits of which each seat has shown it holds no hidden card, by failing to follow (N blocks of 4 bits)."""
    history: tuple[int, ...]
    """Every action of this hand in order (card plays are ``card + 40 * signal``; see ``actions``)."""

    @property
    def phase(self) -> int:
        """PLAY, or the game's own phase (while ``status`` is PLAYING)."""
        return self.table.phase

    @property
    def exposed(self) -> int:
        """Cards face up in each seat's hand that it still holds, by seat (N blocks of 40 bits)."""
        return self.table.exposed & ~self.played

    @property
    def extra(self) -> Any:
        """The game's own public record (``Table.extra``)."""
        return self.table.extra

    def played_by(self, seat: Seat) -> CardMask:
        """Cards ``seat`` has played this hand."""
        return (self.played >> (40 * seat)) & _M40

    def revealed_by(self, seat: Seat) -> CardMask:
        """Cards ``seat``'s declarations revealed."""
        return (self.accusi.revealed >> (40 * seat)) & _M40

    def exposed_by(self, seat: Seat) -> CardMask:
        """Cards lying face up in ``seat``'s hand now."""
        return (self.exposed >> (40 * seat)) & _M40

    def signals_by(self, seat: Seat, suit: int) -> tuple[bool, bool, bool]:
        """Whether ``seat`` gave (busso, striscio, volo) in ``suit`` this hand."""
        bits = self.signals >> (12 * seat + 3 * suit)
        return bool(bits & 1), bool(bits & 2), bool(bits & 4)

    def is_void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` has shown it holds no hidden card of ``suit``."""
        return bool(self.voids >> (4 * seat + suit) & 1)

    @property
    def all_played(self) -> CardMask:
        """Every card played this hand, by anyone."""
        p = self.played
        out = 0
        while p:
            out |= p & _M40
            p >>= 40
        return out

    @property
    def plays(self) -> tuple[int, ...]:
        """The card plays of this hand in order (the history without the other phases' actions)."""
        history = self.history
        if not history or history[0] < 160:  # the other phases' actions (ids above 160) come first
            return history
        return tuple(a for a in history if a < 160)

    def trick_winners(self) -> list[Seat]:
        """The seat that took each completed trick of this hand, in order (``tricks()``'s winners, without its tuples).

        What a game's score counts tricks by (Calabresella's and a chiamare's cappotto): one
        ``winning_position`` a trick, where reading ``tricks()`` and asking ``trick_winner`` of
        each trick found every winner twice.
        """
        out = []
        leader = self.first_leader
        n = self.table.seats
        plays = self.plays
        for start in range(0, len(plays) - n + 1, n):
            leader = (leader + winning_position([a % 40 for a in plays[start : start + n]])) % n
            out.append(leader)
        return out

    def tricks(self) -> list[tuple[Seat, tuple[int, ...], tuple[int, ...]]]:
        """The tricks of this hand so far: (leader, cards, actions), the current one last."""
        out = []
        leader = self.first_leader
        n = self.table.seats
        plays = self.plays
        for start in range(0, len(plays), n):
            actions = plays[start : start + n]
            cards = tuple(a % 40 for a in actions)
            out.append((leader, cards, actions))
            if len(cards) == n:
                leader = trick_winner(leader, cards, n)
        return out


class GameState(NamedTuple):
    """The whole game, hidden hands included. Never show it to a player: use ``game.view``."""

    public: PublicState
    hands: tuple[CardMask, ...]
    """The cards each seat holds now (those it may play: face-up packet tops included)."""
    dealt: tuple[CardMask, ...]
    """The cards each seat was dealt this hand."""
    hidden: Any = None
    """The game's hidden record (the stock's order, the cards under the packets...); None in the four-seat game."""

    def __str__(self) -> str:
        from .render import render_state

        return render_state(self)


class SeatView(NamedTuple):
    """What one seat knows: its own hand, what it alone knows of the cards out of every hand, and the public state.

    Players see only this.
    """

    seat: Seat
    hand: CardMask
    public: PublicState
    private: CardMask = 0
    """Cards out of every hand whose place this seat alone knows: its own face-down discards, a monte
    it was shown (``Game.private_of``); 0 in the games without such cards."""

    @property
    def unseen(self) -> CardMask:
        """Cards this seat has not seen: held by the others (or hidden on the table) and not played, revealed or exposed."""
        p = self.public
        known = self.hand | p.all_played | self.private
        for packed in (p.accusi.revealed, p.exposed):
            while packed:
                known |= packed & _M40
                packed >>= 40
        return _M40 & ~known

    def __str__(self) -> str:
        from .render import render_view

        return render_view(self)
