"""The rule player of ``agents.a_chiamare_heuristic`` for a whole ``AChiamareBatch`` at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each deal of an
``AChiamareBatch``, exactly the action that
``AChiamareHeuristic().act(view(state, turn), legal_actions(state), rng)`` returns on the same
state (the player is deterministic), with a fixed number of NumPy calls whatever the number of
deals (``tests/vector/test_a_chiamare_heuristic.py`` pins it decision for decision). The
batched ``side_play`` (the count, the call, the card play) is ``vector._side_play``, shared
with ``vector.calabresella_heuristic``; this module reads the batch and the sides.

| decision | how it is batched |
| --- | --- |
| bid | ``side_play.hand_strength`` (``_side_play.hand_strength6``) in sixths of a point (exact integers), against ``CHIAMO_AT`` and ``SOLA_AT`` |
| call | the callable cards it lacks (all of them if it lacks none): the strongest rank, then its longest and richest suit (``_side_play.call_card``) |
| play | ``side_play.side_card`` (``_side_play.side_card``) over (M, 40) card columns, with the friends of ``known_sides`` as 5-bit seat masks (``side_card`` reads no foes) |

Python's ``min``/``max`` over a list sorted by card id keep the first card among equal keys:
every choice here is an argmax (argmin) of one integer key per card with the card id as the
last tie-break, lowest id first. The suspects of ``_suspects`` (seats that loaded points onto
a trick the declarer was winning, seats that beat his card) are kept by the batch as it steps.

Example:
    >>> import numpy as np
    >>> from tressette_env.vector.a_chiamare import AChiamareBatch
    >>> batch = AChiamareBatch(4, seed=0)
    >>> actions = batch.heuristic_actions()
    >>> bool(batch.legal_masks()[np.arange(4), actions].all())
    True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..agents.a_chiamare_heuristic import CHIAMO_AT, SOLA_AT
from ..engine.actions import CALL, CHIAMO, PASS, SOLO
from ..engine.state import PLAY
from ..games.a_chiamare import AUCTION, CALL_PHASE, PLAYERS
from ._family import max_columns, or_columns
from ._side_play import FULL, ZERO, call_card, cards_at, hand_strength6, on_turn, only, side_card
from .a_chiamare import AChiamareBatch

P = PLAYERS


def heuristic_actions(batch: AChiamareBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """(M,) ``AChiamareHeuristic``'s action for the seat on turn in each of ``deals`` (all when None); -1 where none."""
    rows, out, playing, me, phase, hand, words, legal_count = on_turn(batch, deals, AChiamareBatch)
    m = len(rows)
    if m == 0:
        return out
    b = batch

    # Each decision is computed on the rows of its phase only (``j``: their places in ``out``).
    # --- the auction: its count against the thresholds, the highest bid the auction allows
    j = np.flatnonzero(phase == AUCTION)
    if len(j):
        count6 = hand_strength6(hand[j])  # the count times 6: exact
        standing = max_columns(b._bids[rows[j]])  # noqa: SLF001
        out[j] = np.where(
            (count6 >= 6 * SOLA_AT) & (standing < SOLO),
            SOLO,
            np.where((count6 >= 6 * CHIAMO_AT) & (standing < CHIAMO), CHIAMO, PASS),
        )

    # --- the call: never its own card when it may help it; the strongest rank, then the longest and richest suit
    j = np.flatnonzero(phase == CALL_PHASE)
    if len(j):
        callable_ = cards_at(words[j], CALL)
        lacking = callable_ & ~hand[j]
        options = np.where(lacking != ZERO, lacking, callable_)
        out[j] = CALL + call_card(hand[j], options)

    # --- the card play
    j = np.flatnonzero(phase == PLAY)
    if len(j):
        out[j] = _play(b, rows[j], me[j], hand[j], words[j, 0] & FULL)
    out = np.where(legal_count == 1, only(words), out)  # the only legal action, as the player takes it
    return np.where(playing, out, -1)


def _friends(b: AChiamareBatch, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
    """(M,) 5-bit masks: the seat's friends (itself included), as ``known_sides`` (``side_card`` reads no foes)."""
    everyone = (1 << P) - 1
    mine = 1 << me
    declarer = b._declarer[rows]  # noqa: SLF001
    called = b._called[rows]  # noqa: SLF001
    partner = b._partner[rows]  # noqa: SLF001
    decl = 1 << np.maximum(declarer, 0)
    sola = b._contract[rows] == SOLO  # noqa: SLF001
    known = b._revealed(rows, partner, called)  # noqa: SLF001
    bit = np.where(called >= 0, np.uint64(1) << np.maximum(called, 0).astype(np.uint64), ZERO)
    holds = (me != declarer) & ((b._dealt[rows, me] & bit) != ZERO)  # noqa: SLF001
    revealed = np.where(holds, me, np.where(known, partner, -1))
    team = decl | np.where(revealed >= 0, 1 << np.maximum(revealed, 0), 0)
    in_team = (team & mine) != 0
    loaders, beaters = b._loaders[rows], b._beaters[rows]  # noqa: SLF001
    is_declarer = me == declarer
    friends = np.where(
        sola,
        np.where(is_declarer, mine, everyone & ~decl),
        np.where(
            revealed >= 0,
            np.where(in_team, team, everyone & ~team),
            np.where(is_declarer, mine | (loaders & ~beaters), mine | beaters),
        ),
    )
    return friends


def _play(b: AChiamareBatch, rows: np.ndarray, me: np.ndarray, hand: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """(M,) ``side_card``'s card (a plain card play id) for the seat on turn."""
    friends = _friends(b, rows, me)
    played = or_columns(b._played[rows])  # noqa: SLF001
    unseen = FULL & ~(hand | played)
    trick, led, count = b._trick[rows], b._led[rows], b._count[rows]  # noqa: SLF001
    return side_card(legal, unseen, trick, led, count, me, friends, P)
