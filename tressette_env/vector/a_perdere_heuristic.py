"""The rule player of ``agents.a_perdere_heuristic`` for a whole ``APerdereBatch`` at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each deal of an
``APerdereBatch``, exactly the action that
``APerdereHeuristic().act(view(state, turn), legal_actions(state), rng)`` returns on the same
scalar state, under every rule set of ``APerdereRules`` (both objectives, three to eight
players or the teams, every ``reduce`` with the dealer's discards, matches, eliminations);
``tests/vector/test_a_perdere_heuristic.py`` pins it to the scalar player step by step. The
rules are a fixed number of NumPy calls per batch, whatever its size (no search: the scalar
player has none).

How: every rule of the scalar player picks a card by a key of its rank (points, then taking
power, ...), ties going to the lowest card id, which is the lowest suit (Python's ``min`` and
``max`` keep the first of equal keys, and the legal actions come lowest id first; the
``lows`` dict of rule 2 is filled in the same order, so its suits come lowest first too).
So the cards of each suit are 10-bit fields (bit ``r`` = rank index ``r``, the engine mask's
bits ``10 s .. 10 s + 9``), the choice inside a suit is one lookup in a 1024-entry table (the
place, in the rule's order of ranks, of the first rank present), and the choice of a suit is
the minimum over the four suits of ``key * 4 + suit``. Every rule is computed for every chosen
deal and the first that applies is kept (``np.where`` from the last rule to the first).

| scalar rule (``APerdereHeuristic``) | batched as |
| --- | --- |
| one legal action | that action (every rule below chooses among the legal cards, so it would choose it too) |
| the dealer's discards (``DISCARD``): the most (thirds, power) card | the "dearest" table over the hand's fields, ``GIVE`` + card |
| the seat's cappotto threat: one side alone has thirds, not the seat's, at least 18 | (M, S) thirds: one nonzero, its side (``argmax``) not the seat's side (its seat, or seat % 2 with ``teams``) |
| "others": the cards neither in the hand nor played this hand | the complement of hand and played cards: the removed cards, the monte and the discards (the dealer's own too) are "others", as in the scalar player |
| 1. on lead, under threat: the dearest master card with a point (no stronger card of its suit among the others) | per suit: legal & point ranks & the ranks above every other of the suit (all ranks where the others hold none); the dearest table |
| 2. on lead: of the weakest card of each suit, most others above it, then fewest thirds, then weakest | per suit the weakest rank ``r`` and ``popcount(others & above(r))``; min of ``((10 - above) * 4 + thirds) * 10 + power``, then suit |
| 6. void in the led suit: the dearest card | the dearest table over the legal fields |
| 3. under threat, points on the table: the cheapest winner | the led suit's field above the winning card; the cheapest rank |
| 4. the strongest loser | the led suit's field below the winning card; the strongest rank |
| 5. last to play: the strongest; else the weakest | the led suit's field; the strongest or the weakest rank (``seats`` = the players still in) |
| ``objective="take"``, on lead: the strongest (then fewest thirds) | the strongest table (power alone orders the ranks), lowest suit on a tie |
| ``objective="take"``, following: the weakest winner, else the cheapest card | the led suit's field above the winning card; else the cheapest table over the legal fields |
| the action of the chosen card: ``{a % 40: a for a in legal}``, the last id wins | the card; on lead with ``teams`` its highest signal: striscio (``c + 80``) in a suit of two or more, volo (``c + 120``) of a lone card |

The state is read from the batch's private arrays, the rows of the chosen deals only
(``_read``; the tests check it against the public readers and the observation).

Measured (``OMP_NUM_THREADS=1``, CPU time by ``time.process_time``, N = 1024, every seat
playing the heuristic over whole hands): about 3 million decisions a second (2.9 to 3.1
million with four, three with the dealer's discards, eight players and the teams; 6 million
with ``objective="take"``), of the order of the batch's own ``step``.

Example:
    >>> import numpy as np
    >>> from tressette_env.vector.a_perdere import APerdereBatch
    >>> batch = APerdereBatch(4, seed=0, players=5)
    >>> actions = heuristic_actions(batch)
    >>> actions.shape, bool(batch.legal_masks()[np.arange(4), actions].all())
    ((4,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..engine.actions import GIVE, STRISCIO, VOLO
from ..engine.cards import THIRDS
from ..games.a_perdere import DISCARD
from . import _suit_fields as sf
from .a_perdere import APerdereBatch

__all__ = ["heuristic_actions"]

# --------------------------------------------------------------------------- tables
# Suits as 10-bit fields (``vector._suit_fields``, shared with the other heuristic), and this game's own.

_S_OF = np.array([*sf.S, 0], dtype=np.int64)
_T_OF = np.array([*sf.T, 0], dtype=np.int64)
_POINT_CARDS = np.uint64(sum(1 << c for c in range(40) if THIRDS[c]))
"""The cards with a point (any thirds)."""
_CARD_BIT = np.array([1 << c for c in range(40)] + [0], dtype=np.uint64)
_THREAT = 18
"""``_cappotto_threat``: the thirds one other side must hold alone."""


# --------------------------------------------------------------------------- batch state


class _Table(NamedTuple):
    """What the rules read of the chosen (playing) deals."""

    turn: np.ndarray
    """(M,) the seat on turn."""
    phase: np.ndarray
    """(M,) the scalar game's phase (``PLAY``, or ``DISCARD`` while the dealer discards)."""
    hand: np.ndarray
    """(M,) uint64: the cards of the seat on turn."""
    played: np.ndarray
    """(M,) uint64: every card played this hand (those on the table too)."""
    table: np.ndarray
    """(M,) uint64: the cards on the table (the current trick)."""
    led: np.ndarray
    """(M,) the led suit, -1 on lead."""
    count: np.ndarray
    """(M,) cards on the table."""
    seats: np.ndarray
    """(M,) seats at the table (the players still in)."""
    thirds: np.ndarray
    """(M, S) thirds each side has taken this hand."""


def _read(batch: APerdereBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
    """The ``_Table`` of the deals ``rows`` (all playing), from the batch's private arrays."""
    trick = batch._trick.take(rows, axis=0)
    return _Table(
        turn,
        batch._phase.take(rows),
        batch._hands[rows, turn],
        np.bitwise_or.reduce(batch._played.take(rows, axis=0), axis=1),
        np.bitwise_or.reduce(_CARD_BIT.take(np.where(trick < 0, 40, trick)), axis=1),
        batch._led.take(rows),
        batch._count.take(rows),
        batch._live.take(rows),
        batch._thirds.take(rows, axis=0),
    )


# --------------------------------------------------------------------------- the player


def heuristic_actions(batch: APerdereBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """The action ``APerdereHeuristic`` takes for the seat on turn in each deal.

    Args:
        batch: the deals.
        deals: which deals (indices or an (N,) bool mask); all when None.

    Returns:
        (M,) int64 action ids, one per chosen deal in order; -1 for a finished deal
        (``autoreset=False``), where no seat is on turn.

    Raises:
        TypeError: ``batch`` is not an ``APerdereBatch``.
        ValueError: bad ``deals``.
    """
    return _actions(batch, deals, _read)


def _actions(batch: APerdereBatch, deals: Any, read: Any) -> np.ndarray:
    if not isinstance(batch, APerdereBatch):
        raise TypeError(f"heuristic_actions plays an APerdereBatch; got {type(batch).__name__}")
    rows = np.arange(batch.num_deals) if deals is None else batch._deal_indices(deals)
    out = np.full(len(rows), -1, dtype=np.int64)
    turn = batch.turn.take(rows)
    playing = np.flatnonzero(turn >= 0)
    if len(playing) < len(rows):
        rows, turn = rows[playing], turn[playing]
    if not len(rows):
        return out
    out[playing] = _rules(batch, read(batch, rows, turn))
    return out


def _rules(batch: APerdereBatch, t: _Table) -> np.ndarray:
    """Every rule of the scalar player, for every deal of ``t``; the first that applies."""
    rules = batch.rules
    m = len(t.turn)
    hand, led = t.hand, t.led
    on_lead = led < 0
    led_suit = np.where(on_lead, 4, led)
    follow = hand & sf.SUIT_BITS.take(led_suit)
    legal = np.where(follow != 0, follow, hand)  # the legal cards (the engine's rule: follow suit if able)
    f = sf.fields(legal)  # (4, M)
    shift = (10 * np.maximum(led, 0)).astype(np.uint64)
    mine = ((follow >> shift) & sf.M10).view(np.int64)  # the led suit's legal field (0 when void or on lead)
    top = sf.TOP.take(((t.table & sf.SUIT_BITS.take(led_suit)) >> shift & sf.M10).view(np.int64))  # the winning rank
    winners = mine & sf.ABOVE.take(top)

    if rules.objective == "take":
        weakest_winner = 10 * led + sf.WEAKEST.rank.take(sf.WEAKEST.place.take(winners))
        follow_card = np.where(winners != 0, weakest_winner, sf.best(f, sf.CHEAPEST))
        card = np.where(on_lead, sf.best(f, sf.STRONGEST), follow_card)
    else:
        # The cappotto threat: one side alone has taken thirds, not the seat's, and at least 18.
        taken = t.thirds != 0
        side = taken.argmax(axis=1)
        own = t.turn % 2 if rules.teams else t.turn
        spoil = (taken.sum(axis=1) == 1) & (side != own) & (t.thirds.sum(axis=1) >= _THREAT)
        others = sf.fields(sf.FULL & ~(hand | t.played))
        # On lead: 1. a master with a point under threat; 2. the weakest card most likely beaten.
        masters = sf.best(f & sf.POINTS & sf.ABOVE_ALL.take(others), sf.DEAREST)
        low = sf.WEAKEST.rank.take(sf.WEAKEST.place.take(f))  # (4, M): the weakest rank of each suit, -1 none
        above = sf.POP.take(others & sf.ABOVE.take(low))
        key = ((((10 - above) * 4 + _T_OF.take(low)) * 10 + _S_OF.take(low)) * 4 + sf.SUIT_COL).min(
            axis=0, where=low >= 0, initial=1 << 30
        )
        lows = 10 * (key & 3) + low[key & 3, np.arange(m)]
        lead = np.where(spoil & (masters >= 0), masters, lows)
        # Following: 3. the cheapest winner under threat with points on the table; 4. the strongest loser;
        # 5. last to play, the strongest; else the weakest. 6. Void: the dearest card.
        points = (t.table & _POINT_CARDS) != 0
        losers = mine & sf.BELOW.take(top)
        last = t.count == t.seats - 1
        in_suit = np.where(
            spoil & (winners != 0) & points,
            sf.CHEAPEST.rank.take(sf.CHEAPEST.place.take(winners)),
            np.where(
                losers != 0,
                sf.STRONGEST.rank.take(sf.STRONGEST.place.take(losers)),
                np.where(
                    last,
                    sf.STRONGEST.rank.take(sf.STRONGEST.place.take(mine)),
                    sf.WEAKEST.rank.take(sf.WEAKEST.place.take(mine)),
                ),
            ),
        )
        card = np.where(on_lead, lead, np.where(mine != 0, 10 * led + in_suit, sf.best(f, sf.DEAREST)))

    # The action: the card; on lead with teams its last legal id (striscio in a suit of two or more, else volo).
    action = card
    if rules.teams:
        length = np.bitwise_count(hand & sf.SUIT_BITS.take(card // 10)).astype(np.int64)
        action = np.where(on_lead, card + 40 * np.where(length >= 2, STRISCIO, VOLO), card)
    if rules.reduce == "dealer_discard":
        action = np.where(t.phase == DISCARD, GIVE + sf.best(sf.fields(hand), sf.DEAREST), action)
    return action
