"""The rule player of ``agents.in_due_heuristic`` for a whole ``InDueBatch`` at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each deal of an
``InDueBatch``, exactly the action that
``InDueHeuristic().act(view(state, turn), legal_actions(state), rng)`` returns on the same
scalar state, under every rule set of ``InDueRules`` (both forms, ``objective="avoid"``,
``calling_out``, matches); ``tests/vector/test_in_due_heuristic.py`` pins it to the scalar
player step by step. The rules are a fixed number of NumPy calls per batch, whatever its
size; the endgame is the scalar player's own exact search, deal by deal (with numba, every deal in
one compiled call; below).

How: every rule of the scalar player picks a card by a key of its rank (points, then taking
power, ...), ties going to the lowest card id, which is the lowest suit (Python's ``min`` and
``max`` keep the first of equal keys, and the legal actions come lowest id first). So the
cards of each suit are 10-bit fields (bit ``r`` = rank index ``r``, the engine mask's bits
``10 s .. 10 s + 9``), the choice inside a suit is one lookup in a 1024-entry table (the
place, in the rule's order of ranks, of the first rank present), and the choice of a suit is
the minimum over the four suits of ``key * 4 + suit``. Every rule is computed for every chosen
deal and the first that applies is kept (``np.copyto`` in reverse order of priority).

| scalar rule (``InDueHeuristic``) | batched as |
| --- | --- |
| one legal action | that action (the rules below all choose inside the legal ones, so only the endgame skips its search) |
| picking packets (``SELECT_PACKETS``): ``legal[0]`` | ``PACKET`` + the lowest bit not set in the picked packets' byte |
| turning packets up: the bottom card of least (thirds, power) | the cheapest-card table over the fields of the not-yet-turned bottoms, ``CALL`` + card |
| calling out when the claim is true | ``calling_out`` and on lead in the card play, and match score + ``team_points`` (thirds // 3 + declared, 0 without a card point) >= target |
| the endgame (phase ``PLAY``: the stock or the packets gone) | ``best_open_move``'s search for each deal, from the batch's arrays: with numba ``open_solver_two.best_moves`` for them all in one call, else ``best_open_move`` deal by deal (see below) |
| ``objective="avoid"``, leading: least (power, thirds) | per suit the weakest rank; min of power * 4 + suit |
| ``objective="avoid"``, following: the highest (thirds, power) card that loses, else least (power, thirds) | the losers' fields (other suits whole, the led suit below the led card); the "most (thirds, power)" table; else as leading |
| 1. lead a master card with a point while the opponent may follow | per suit: legal & point ranks & the ranks above every card the opponent may hold (cards neither held nor played), the suit not empty there; the "most (thirds, power)" table |
| 2. lead low: the liscio (4 to 7) of the longest suit, the weakest; else the cheapest card but a lone asso | per suit key (10 - length, power of the weakest liscio); else the cheapest-card table over the legal fields without the asso of a suit holding neither the 2 nor the 3 (all of them when that leaves none; the asso, the dearest card, is the cheapest only in a hand of lone assi, so this never changes the choice, but it is kept as written) |
| 3. take a trick with points with the cheapest winner | the led suit's legal field & the ranks above the led card; the cheapest-card table |
| 4. take for the first draw when the cheapest winner has no point (``PLAY_STOCK`` only) | the same winner, when its rank has no thirds and the phase is ``PLAY_STOCK`` |
| 5. the cheapest card | the cheapest-card table over the four legal fields, min of place * 4 + suit |

The state is read from the batch's private arrays, the rows of the chosen deals only
(``_read``; the tests check it against the public readers and the observation).

**The endgame is a search, not array operations.** Once the stock is empty (or every face-up
packet is gone) the scalar player searches the perfect-information game exactly
(``agents.open_solver``'s alpha-beta: a tree of up to 10 + 10 cards, a search whose size
depends on the cards and is nothing like a fixed set of array operations). So each endgame
decision is ``best_open_move(hands, leader, trick, sides=(0, 1), prefer=(thirds, power),
least=avoid)``, as ``InDueHeuristic.endgame`` asks it: the seat's hand, the opponent's as every
card neither held nor played, the leader and the card on the table; a decision with a single
legal card is not searched. With numba (the ``fast`` extra) every deal's search runs in one
compiled call (``agents.open_solver_two.best_moves``, the same choices as the pure-Python
search); without it, ``best_open_move`` deal by deal. Measured (``OMP_NUM_THREADS=1 python
benchmarks/bench_in_due_heuristic.py``, CPU time, N = 1024, the stock form,
``benchmarks/results/in_due_heuristic.json``): the rules at 2,794,753 decisions a second, the
endgame at 11,200 compiled (289 with ``TRESSETTE_NUMBA=0``, the pure-Python search, unchanged
since it was measured: ``in_due_heuristic_python.json``); half of a stock-form hand's forty card plays are
the endgame's, so the search takes most of the time.
In the packet form the packets usually last to the final tricks, whose decisions
are mostly forced, so its endgame should cost little (not measured).

Example:
    >>> import numpy as np
    >>> batch = InDueBatch(4, seed=0)
    >>> actions = heuristic_actions(batch)
    >>> actions.shape, bool(batch.legal_masks()[np.arange(4), actions].all())
    ((4,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..agents.open_solver import best_open_move, compiled_two_seats
from ..engine.actions import CALL, CALL_OUT, PACKET
from ..engine.cards import STRENGTH, THIRDS
from ..engine.scoring import LAST_TRICK_THIRDS
from ..engine.state import PLAY
from ..games.in_due import PLAY_PACKETS, PLAY_STOCK, SELECT_PACKETS, TURN_PACKETS
from . import _suit_fields as sf
from .in_due import InDueBatch

__all__ = ["heuristic_actions"]

# --------------------------------------------------------------------------- tables
# Suits as 10-bit fields (``vector._suit_fields``, shared with the other heuristic), and this game's own.

_LISCI = sum(1 << r for r in range(10) if not sf.T[r])  # 4 5 6 7
_DUE_TRE = 0b110
_THIRDS_OF = np.array(sf.T, dtype=np.int64)


def _first(conditions: list[np.ndarray], choices: list[Any], default: np.ndarray) -> np.ndarray:
    """``np.select``: the choice of the first true condition, else ``default``."""
    out = default.astype(np.int64)  # a copy
    for condition, choice in zip(reversed(conditions), reversed(choices), strict=True):
        np.copyto(out, choice, where=condition)
    return out


# --------------------------------------------------------------------------- batch state


class _Table(NamedTuple):
    """What the rules read of the chosen (playing) deals."""

    turn: np.ndarray
    """(M,) the seat on turn."""
    phase: np.ndarray
    """(M,) the scalar game's phase."""
    hand: np.ndarray
    """(M,) uint64: the cards of the seat on turn (with its face-up tops in the packet form)."""
    played: np.ndarray
    """(M,) uint64: every card played this hand (the table's card too)."""
    turned: np.ndarray
    """(M,) uint64: the bottom cards the seat on turn has turned face up."""
    selected: np.ndarray
    """(M,) uint64: bit k, packet k picked."""
    leader: np.ndarray
    """(M,) the seat that leads the trick."""
    led: np.ndarray
    """(M,) the card on the table, -1 on lead."""
    thirds: np.ndarray
    """(M,) thirds the seat on turn has taken this hand."""
    declared: np.ndarray
    """(M,) its declaration points this hand."""
    score: np.ndarray
    """(M,) its match score."""


def _read(batch: InDueBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
    """The ``_Table`` of the deals ``rows`` (all playing), from the batch's private arrays."""
    n = batch.num_deals
    at = turn * n + rows  # the seat on turn's entry of the (2, N) arrays

    def mine(pair: np.ndarray) -> np.ndarray:
        return pair.reshape(-1).take(at)

    played = batch._played.take(rows, axis=1)
    leader = batch._leader.take(rows)
    led = np.where(batch._led.take(rows) >= 0, batch._trick.reshape(-1).take(leader * n + rows), -1)
    return _Table(
        turn,
        batch._phase.take(rows),
        mine(batch._hands),
        played[0] | played[1],
        mine(batch._turned),
        batch._selected.take(rows),
        leader,
        led,
        mine(batch._thirds),
        mine(batch._declared),
        mine(batch._match_score),
    )


# --------------------------------------------------------------------------- the player


def heuristic_actions(batch: InDueBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """The action ``InDueHeuristic`` takes for the seat on turn in each deal.

    Args:
        batch: the deals.
        deals: which deals (indices or an (N,) bool mask); all when None.

    Returns:
        (M,) int64 action ids, one per chosen deal in order; -1 for a finished deal
        (``autoreset=False``), where no seat is on turn.

    Raises:
        TypeError: ``batch`` is not an ``InDueBatch``.
        ValueError: bad ``deals``.
    """
    return _actions(batch, deals, _read)


def _actions(batch: InDueBatch, deals: Any, read: Any) -> np.ndarray:
    if not isinstance(batch, InDueBatch):
        raise TypeError(f"heuristic_actions plays an InDueBatch; got {type(batch).__name__}")
    rows = np.arange(batch.num_deals) if deals is None else batch._deal_indices(deals)
    out = np.full(len(rows), -1, dtype=np.int64)
    turn = batch.turn.take(rows)
    playing = np.flatnonzero(turn >= 0)
    if len(playing) < len(rows):
        rows, turn = rows[playing], turn[playing]
    if not len(rows):
        return out
    t = read(batch, rows, turn)
    actions, endgame = _rules(batch, t)
    search = np.flatnonzero(endgame)
    if len(search):
        actions[search] = _endgame(batch, _Table(*(x[search] for x in t)))
    out[playing] = actions
    return out


def _rules(batch: InDueBatch, t: _Table) -> tuple[np.ndarray, np.ndarray]:
    """Every rule of the scalar player but the endgame; and the deals whose decision is the endgame's search."""
    rules = batch.rules
    phase, hand, led = t.phase, t.hand, t.led
    on_lead = led < 0
    led_suit = np.where(on_lead, 4, led // 10)
    led_rank = np.maximum(led, 0) % 10
    card_play = (phase == PLAY_STOCK) | (phase == PLAY_PACKETS) | (phase == PLAY)
    # The legal cards (the engine's rule): follow suit if able, while the stock lasts only with follow_suit_with_stock.
    follow = hand & sf.SUIT_BITS.take(led_suit)
    must = True if batch._packet_form or rules.follow_suit_with_stock else phase == PLAY
    legal = np.where((follow != 0) & must, follow, hand)
    f = sf.fields(legal)  # (4, M)
    h = sf.fields(hand)
    o = sf.fields(sf.FULL & ~(hand | t.played))  # the cards the opponent may hold
    cheapest = sf.card(sf.choose(f, sf.CHEAPEST), sf.CHEAPEST)  # 5.

    # objective="avoid": lead the weakest card; follow with the dearest card that loses, else the weakest.
    weakest = sf.card(sf.choose(f, sf.WEAKEST), sf.WEAKEST)
    in_led = sf.SUIT_COL == led_suit
    losers = np.where(in_led, f & sf.BELOW.take(led_rank), f)
    dearest_loser = sf.card(sf.choose(losers, sf.DEAREST), sf.DEAREST)
    duck = np.where(~on_lead & (dearest_loser >= 0), dearest_loser, weakest)

    # 1. A master card with a point, the opponent able to follow: the dearest.
    masters = np.where(o != 0, f & sf.POINTS & sf.ABOVE_ALL.take(o), 0)
    master = sf.card(sf.choose(masters, sf.DEAREST), sf.DEAREST)
    # 2. The weakest liscio of the longest suit; else the cheapest card but a lone asso.
    lisci = sf.WEAKEST.place.take(f & _LISCI)
    liscio_key = np.where(lisci < sf.NONE, ((10 - sf.POP.take(h)) * 16 + lisci) * 4 + sf.SUIT_COL, 1 << 20).min(axis=0)
    liscio = np.where(liscio_key < 1 << 20, 10 * (liscio_key & 3) + sf.WEAKEST.rank.take((liscio_key >> 2) & 15), -1)
    safe = np.where(h & _DUE_TRE == 0, f & ~1, f)
    safe = np.where((safe != 0).any(axis=0), safe, f)
    low = np.where(liscio >= 0, liscio, sf.card(sf.choose(safe, sf.CHEAPEST), sf.CHEAPEST))
    lead = np.where(master >= 0, master, low)
    # 3. and 4. The cheapest winner, on points on the table or, costing nothing, for the first draw.
    mine = f.reshape(-1).take(np.minimum(led_suit, 3) * len(led) + np.arange(len(led)))
    winner_rank = sf.CHEAPEST.rank.take(sf.CHEAPEST.place.take(mine & sf.ABOVE.take(led_rank)))
    take = (winner_rank >= 0) & (
        (_THIRDS_OF.take(led_rank) > 0) | ((_THIRDS_OF.take(winner_rank) == 0) & (phase == PLAY_STOCK))
    )
    play = np.where(on_lead, lead, np.where(take, 10 * led_suit + winner_rank, cheapest))
    if rules.objective == "avoid":
        play = duck

    # Calling out: on lead in the card play, when the claim is true.
    card_points = t.thirds // 3
    points = np.where(card_points > 0, card_points + t.declared, 0)
    call = card_play & on_lead & (t.score + points >= rules.target_score) & rules.calling_out
    # The packets: pick the lowest packet not picked; turn up the cheapest bottom card.
    free = ~t.selected & (t.selected + np.uint64(1))  # the lowest bit not set
    pick = PACKET + np.bitwise_count(free - np.uint64(1)).astype(np.int64)
    bottoms = sf.fields(hand & ~t.turned)
    turn_up = CALL + sf.card(sf.choose(bottoms, sf.CHEAPEST), sf.CHEAPEST)
    actions = _first([phase == SELECT_PACKETS, phase == TURN_PACKETS, call], [pick, turn_up, CALL_OUT], play)
    # The endgame: the search, unless a single card is legal (it is then ``play``).
    endgame = (phase == PLAY) & ~call & (np.bitwise_count(legal) > 1)
    return actions, endgame


def _prefer(card: int) -> tuple[int, int]:
    """Of cards of equal value, the cheapest (``InDueHeuristic.endgame``'s ``prefer``)."""
    return THIRDS[card], STRENGTH[card]


_RANK = np.empty(40, dtype=np.int64)
_RANK[sorted(range(40), key=lambda c: (_prefer(c), c))] = np.arange(40)
"""Each card's place in ``_prefer``'s order, ties by card id: the order ``best_open_move`` sorts the legal cards in."""


def _endgame(batch: InDueBatch, t: _Table) -> np.ndarray:
    """``InDueHeuristic.endgame`` for each deal: the exact perfect-information search (with numba one compiled call for all)."""
    least = batch.rules.objective == "avoid"
    other = sf.FULL & ~(t.hand | t.played)
    two = compiled_two_seats()
    if two is not None:  # numba: every deal's search in one compiled call, the same choices
        first = t.turn == 0
        return two.best_moves(
            np.where(first, t.hand, other).view(np.int64), np.where(first, other, t.hand).view(np.int64),
            t.leader, t.led, _RANK, least=least, last_trick=LAST_TRICK_THIRDS,
        )  # fmt: skip
    out = np.empty(len(t.turn), dtype=np.int64)
    for j, (me, hand, theirs, leader, led) in enumerate(
        zip(t.turn.tolist(), t.hand.tolist(), other.tolist(), t.leader.tolist(), t.led.tolist(), strict=True)
    ):
        hands = [hand, theirs] if me == 0 else [theirs, hand]
        trick = [led] if led >= 0 else []
        out[j] = best_open_move(hands, leader, trick, sides=(0, 1), prefer=_prefer, least=least)
    return out
