"""The rule player of ``agents.calabresella_heuristic`` for a whole ``CalabresellaBatch`` at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each deal of a
``CalabresellaBatch``, exactly the action that
``CalabresellaHeuristic().act(view(state, turn), legal_actions(state), rng)`` returns on the
same state (the player is deterministic), under every switch of ``CalabresellaRules`` (three
or four players, the dealer sitting out, every contract and exchange), with a fixed number of
NumPy calls whatever the number of deals (``tests/vector/test_calabresella_heuristic.py`` pins
it decision for decision). The batched ``side_play`` (the count, the call, the card play) is
``vector._side_play``, shared with ``vector.a_chiamare_heuristic``.

| decision (phase) | how it is batched |
| --- | --- |
| one legal action | that action (``_side_play.only``) |
| bid (``AUCTION``) | ``_side_play.hand_strength6`` (the count in sixths, exact) against ``CHIAMO_AT``, ``SOLO_AT``, ``SOLISSIMO_AT``: the highest of those contracts whose bit is in the legal words; else ``PASS`` |
| call (``CALL_PHASE``) | ``_side_play.call_card`` over the legal calls |
| return (``RETURN``) | the first suit (lowest) of the legal cards with the fewest cards in the whole hand (the called card counted), then its least (thirds, strength) card |
| take (``TAKE``) and swap in (``CHOOSE``, nothing owed) | the lowest monte card of the legal ones at least an asso (``STRENGTH >= ASSO``); else ``PASS`` |
| discard (``DISCARD``) | the least (not a master, its suit's length in the hand, strength, thirds) card, ``is_master`` against the seat's unseen cards |
| dividete's discards (``SPLIT``), a card into the monte (``CHOOSE``, one owed) | the least (thirds, strength) card |
| play (``PLAY``) | ``_side_play.side_card`` with the public sides: the soloist's friends are himself, the others' every seat but the soloist |

Python's ``min``/``max`` over a list sorted by card id keep the first card among equal keys:
every choice is an argmax (argmin) of one integer key per card with the card id as the last
tie-break (``_side_play.best``); ``min`` over the set of suits walks them in ascending order.

Decisions:

- The seat's unseen cards (``SeatView.unseen``) are read from the batch's arrays: every card
  but its hand, the cards played, the face-down cards it knows (``_known``: its discards, a
  monte it saw) and the cards handed over face up (``_exposed``). ``_known`` lacks the monte
  the soloist takes in a full exchange (the scalar game learns it), but those cards are then
  in his hand, among his discards or played: the same unseen cards. The batch keeps all the
  player reads; it needs no new state.
- Each decision is computed on the rows of its phase only (``np.flatnonzero`` of the phase,
  then the same fixed calls on those rows): a hand is mostly card play, so the (M, 40) keys of
  the exchange are not built for every deal. Measured (CPU time, N = 1024, whole hands of the
  default rules, the heuristic's actions with half of its passes replaced by random bids so
  that hands are played): about 420,000 decisions a second for ``heuristic_actions``, 280,000
  with the batch's ``step``.
- Nothing is refused: every rule set of ``CalabresellaRules`` is played.

Example:
    >>> import numpy as np
    >>> from tressette_env.vector.calabresella import CalabresellaBatch
    >>> batch = CalabresellaBatch(4, seed=0)
    >>> actions = heuristic_actions(batch)
    >>> bool(batch.legal_masks()[np.arange(4), actions].all())
    True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..agents.calabresella_heuristic import ASSO, CHIAMO_AT, SOLISSIMO_AT, SOLO_AT
from ..engine.actions import CALL, CHIAMO, GIVE, PASS, SOLISSIMO, SOLO
from ..engine.state import PLAY
from ..games.calabresella import AUCTION, CALL_PHASE, CHOOSE, DISCARD, RETURN, SPLIT, TAKE
from ._family import or_columns, popcount
from ._side_play import (
    FULL,
    ONE,
    STR,
    SUITS,
    TH,
    U64,
    ZERO,
    best,
    call_card,
    cards_at,
    columns,
    hand_strength6,
    key,
    master_cards,
    on_turn,
    only,
    side_card,
    suit_lengths,
)
from .calabresella import CalabresellaBatch

_ASSI_UP = U64(sum(1 << c for c in range(40) if STR[c] >= ASSO))
"""The cards worth taking from the monte: at least an asso."""
_BIG = 1 << 20
_SUIT_OF = np.arange(40) // 10


def unseen(batch: CalabresellaBatch, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
    """(M,) uint64: ``SeatView.unseen`` of the seat ``me`` in the deals ``rows`` (see the module docstring)."""
    b = batch
    hand = b._hands[rows, me]  # noqa: SLF001
    played = or_columns(b._played[rows])  # noqa: SLF001
    exposed = or_columns(b._exposed[rows])  # noqa: SLF001
    return FULL & ~(hand | played | b._known[rows, me] | exposed)  # noqa: SLF001


def heuristic_actions(batch: CalabresellaBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """(M,) ``CalabresellaHeuristic``'s action for the seat on turn in each of ``deals`` (all when None); -1 where none."""
    rows, out, playing, me, phase, hand, words, legal_count = on_turn(batch, deals, CalabresellaBatch)
    m = len(rows)
    if m == 0:
        return out
    b = batch

    # Each decision is computed on the rows of its phase only (``j``: their places in ``out``).
    # --- the auction: the highest contract its count reaches that the auction allows
    j = np.flatnonzero(phase == AUCTION)
    if len(j):
        count6 = hand_strength6(hand[j])
        bid = np.full(len(j), PASS, dtype=np.int64)
        for contract, at in ((CHIAMO, CHIAMO_AT), (SOLO, SOLO_AT), (SOLISSIMO, SOLISSIMO_AT)):
            allowed = ((words[j, 3] >> U64(contract - 192)) & ONE) != ZERO
            bid = np.where(allowed & (count6 >= 6 * at), contract, bid)
        out[j] = bid

    # --- the call
    j = np.flatnonzero(phase == CALL_PHASE)
    if len(j):
        out[j] = CALL + call_card(hand[j], cards_at(words[j], CALL))

    # --- the cards given: returned, discarded, put down
    gives = cards_at(words, GIVE)
    giving = (phase == RETURN) | (phase == DISCARD) | (phase == SPLIT) | ((phase == CHOOSE) & (gives != ZERO))
    j = np.flatnonzero(giving)
    if len(j):
        h, g, ph = hand[j], gives[j], phase[j]
        cols = columns(g)
        th, st = TH[None, :], STR[None, :]
        cheapest = best(cols, key(th, st), highest=False)
        # return: the shortest suit of the hand among those of the options (the first of equal), its cheapest card
        by_suit = popcount(h[:, None] & SUITS[None, :])  # (J, 4)
        has = popcount(g[:, None] & SUITS[None, :]) > 0
        shortest = np.where(has, by_suit, _BIG).argmin(axis=1)
        returned = best(cols & (_SUIT_OF[None, :] == shortest[:, None]), key(th, st), highest=False)
        # discard: not a master, from its shortest suit, the weakest
        master = columns(master_cards(unseen(b, rows[j], me[j])))
        discarded = best(cols, key(master.astype(np.int64), suit_lengths(h), st, th), highest=False)
        out[j] = GIVE + np.where(ph == RETURN, returned, np.where(ph == DISCARD, discarded, cheapest))

    # --- a monte card taken: the first at least an asso, else stop
    j = np.flatnonzero((phase == TAKE) | ((phase == CHOOSE) & (gives == ZERO)))
    if len(j):
        good = cards_at(words[j], CALL) & _ASSI_UP
        low = good & (~good + ONE)
        first = np.log2(np.maximum(low, ONE).astype(np.float64)).astype(np.int64)
        out[j] = np.where(good != ZERO, CALL + first, PASS)

    # --- the card play, for the public sides: the soloist against the others
    j = np.flatnonzero(phase == PLAY)
    if len(j):
        seats = b._s  # noqa: SLF001
        r, mj = rows[j], me[j]
        side0 = b._side0[r]  # noqa: SLF001
        everyone = (1 << seats) - 1
        friends = np.where(mj == side0, 1 << mj, everyone & ~(1 << side0))
        trick, led, count = b._trick[r], b._led[r], b._count[r]  # noqa: SLF001
        out[j] = side_card(words[j, 0] & FULL, unseen(b, r, mj), trick, led, count, mj, friends, seats)
    out = np.where(legal_count == 1, only(words), out)  # the only legal action, as the player takes it
    return np.where(playing, out, -1)


__all__ = ["heuristic_actions"]
