"""The rule player of ``agents.a_chiamare_heuristic`` for a whole ``AChiamareBatch`` at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each deal of an
``AChiamareBatch``, exactly the action that
``AChiamareHeuristic().act(view(state, turn), legal_actions(state), rng)`` returns on the same
state (the player is deterministic), with a fixed number of NumPy calls whatever the number of
deals (``tests/vector/test_a_chiamare_heuristic.py`` pins it decision for decision).

| decision | how it is batched |
| --- | --- |
| bid | ``side_play.hand_strength`` in sixths of a point (exact integers), against ``CHIAMO_AT`` and ``SOLA_AT`` |
| call | the callable cards it lacks (all of them if it lacks none): the strongest rank, then its longest and richest suit |
| play | ``side_play.side_card`` over (M, 40) card columns, with the friends of ``known_sides`` as 5-bit seat masks (``side_card`` reads no foes) |

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
from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS
from ..engine.state import PLAY
from ..games.a_chiamare import AUCTION, CALL_PHASE, PLAYERS
from ._family import deal_indices, popcount
from .a_chiamare import AChiamareBatch

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
P = PLAYERS
_IDS = np.arange(40, dtype=np.int64)
_SHIFT = _IDS.astype(U64)
_STR = np.array(STRENGTH, dtype=np.int64)
_TH = np.array(THIRDS, dtype=np.int64)
_SUIT = _IDS // 10
_SUITS = np.array(SUIT_MASK, dtype=U64)
_STRONGER = np.array(
    [sum(1 << o for o in range(40) if o // 10 == c // 10 and STRENGTH[o] > STRENGTH[c]) for c in range(40)], dtype=U64
)
"""The cards of each card's suit that beat it."""
_THIRD_MASKS = np.array(
    [sum(1 << c for c in range(40) if THIRDS[c] == 1), sum(1 << c for c in range(40) if THIRDS[c] == 3)], dtype=U64
)
"""The cards worth one third, and those worth three (the assi)."""
_FULL = U64((1 << 40) - 1)
_BIG = np.int64(1) << 40
_K = 64
"""The base of the composite keys (every part lies in -16..47 after its offset)."""


def _columns(masks: np.ndarray) -> np.ndarray:
    """(M,) uint64 card masks -> (M, 40) bool."""
    return ((masks[:, None] >> _SHIFT) & _ONE) != _ZERO


def _best(candidates: np.ndarray, key: np.ndarray, highest: bool) -> np.ndarray:
    """(M,) the card of ``candidates`` with the highest (lowest) ``key``; the lowest card id among equal keys."""
    if highest:
        score = np.where(candidates, key * _K + (_K - 1 - _IDS), -_BIG)
        return score.argmax(axis=1)
    score = np.where(candidates, key * _K + _IDS, _BIG)
    return score.argmin(axis=1)


def _key(*parts: np.ndarray) -> np.ndarray:
    """One integer key from parts compared in order (each within -16..47)."""
    out = np.zeros(np.broadcast(*parts).shape, dtype=np.int64)
    for part in parts:
        out = out * _K + (part + 16)
    return out


def _suit_lengths(cards: np.ndarray) -> np.ndarray:
    """(M, 40): how many of ``cards`` ((M,) masks) are of each card's suit."""
    by_suit = popcount(cards[:, None] & _SUITS[None, :])  # (M, 4)
    return by_suit[:, _SUIT]


def heuristic_actions(batch: AChiamareBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """(M,) ``AChiamareHeuristic``'s action for the seat on turn in each of ``deals`` (all when None); -1 where none."""
    rows = deal_indices(deals, batch.n, batch._ar)  # noqa: SLF001
    m = len(rows)
    out = np.full(m, -1, dtype=np.int64)
    if m == 0:
        return out
    b = batch
    playing = b._playing[rows]  # noqa: SLF001
    me = b._turn[rows]  # noqa: SLF001
    phase = np.where(playing, b._phase[rows], -1)  # noqa: SLF001
    hand = b._hands[rows, me]  # noqa: SLF001
    words = b._words()[rows]  # noqa: SLF001
    legal_count = popcount(words).sum(axis=1)
    ar = np.arange(m)

    # --- the auction: its count against the thresholds, the highest bid the auction allows
    thirds = popcount(hand[:, None] & _THIRD_MASKS[None, :]) @ np.array([1, 3])  # the hand's thirds
    sure6 = np.zeros(m, dtype=np.int64)  # sure tricks and long suits, in sixths
    for suit in range(4):
        held = hand & _SUITS[suit]
        length = popcount(held)
        three, two, ace = (((held >> U64(10 * suit + r)) & _ONE) != _ZERO for r in (2, 1, 0))
        sure = three.astype(np.int64) + (two & (three | (length >= 3))) + (ace & three & two)
        sure6 += 6 * sure + 3 * np.maximum(0, length - 4)
    count6 = 2 * thirds + sure6  # the count times 6: exact
    standing = b._bids[rows].max(axis=1)  # noqa: SLF001
    bid = np.where(
        (count6 >= 6 * SOLA_AT) & (standing < SOLO),
        SOLO,
        np.where((count6 >= 6 * CHIAMO_AT) & (standing < CHIAMO), CHIAMO, PASS),
    )
    out = np.where(phase == AUCTION, bid, out)

    # --- the call: never its own card when it may help it; the strongest rank, then the longest and richest suit
    calling = phase == CALL_PHASE
    if calling.any():
        callable_ = ((words[:, 2] >> U64(CALL - 128)) | (words[:, 3] << U64(192 - CALL))) & _FULL
        lacking = callable_ & ~hand
        options = np.where(lacking != _ZERO, lacking, callable_)
        cols = _columns(options)
        best_strength = np.where(cols, _STR[None, :], -1).max(axis=1)
        top = cols & (_STR[None, :] == best_strength[:, None])
        suit_thirds = (_columns(hand) * _TH[None, :]) @ (_SUIT[:, None] == np.arange(4)[None, :])  # (M, 4)
        richness = suit_thirds[:, _SUIT]
        card = _best(top, _key(_suit_lengths(hand), richness), highest=True)
        out = np.where(calling, CALL + card, out)

    # --- the card play
    playing_cards = phase == PLAY
    if playing_cards.any():
        out = np.where(playing_cards, _play(b, rows, me, hand, words[:, 0] & _FULL, ar), out)
    out = np.where(legal_count == 1, _only(words), out)  # the only legal action, as the player takes it
    return np.where(playing, out, -1)


def _only(words: np.ndarray) -> np.ndarray:
    """(M,) the lowest legal action (the only one, where there is one)."""
    nonzero = words != _ZERO
    w = nonzero.argmax(axis=1)
    word = words[np.arange(len(words)), w]
    low = word & (~word + _ONE)
    return 64 * w + np.log2(np.maximum(low, _ONE).astype(np.float64)).astype(np.int64)


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
    bit = np.where(called >= 0, U64(1) << np.maximum(called, 0).astype(U64), _ZERO)
    holds = (me != declarer) & ((b._dealt[rows, me] & bit) != _ZERO)  # noqa: SLF001
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


def _play(b: AChiamareBatch, rows: np.ndarray, me: np.ndarray, hand: np.ndarray, legal: np.ndarray, ar) -> np.ndarray:
    """(M,) ``side_card``'s card (a plain card play id) for the seat on turn."""
    friends = _friends(b, rows, me)
    played = np.bitwise_or.reduce(b._played[rows], axis=1)  # noqa: SLF001
    unseen = _FULL & ~(hand | played)
    cards = _columns(legal)
    master = (unseen[:, None] & _STRONGER[None, :]) == _ZERO  # (M, 40)
    lengths = _suit_lengths(legal)
    th, st = _TH[None, :], _STR[None, :]
    # On lead: 1. cash a master (most points, then strongest); 2. the lowest card of the longest suit.
    masters = cards & master
    cash = _best(masters, _key(th, st), highest=True)
    low = _best(cards, _key(-lengths, st, th), highest=False)
    lead = np.where(masters.any(axis=1), cash, low)
    # Following: the trick so far.
    trick = b._trick[rows]  # noqa: SLF001
    led = b._led[rows]  # noqa: SLF001
    count = b._count[rows]  # noqa: SLF001
    on_table = np.where((trick >= 0) & (trick // 10 == led[:, None]), _STR.take(np.maximum(trick, 0)), -1)
    winner = on_table.argmax(axis=1)
    top_card = trick[ar, winner]
    top_strength = on_table.max(axis=1)
    in_trick = np.where(trick >= 0, _TH.take(np.maximum(trick, 0)), 0).sum(axis=1)
    k = np.arange(1, P)[None, :]
    after = (me[:, None] + k) % P
    later = k < (P - count)[:, None]  # the seats after this one in the trick
    danger = (later & (((friends[:, None] >> after) & 1) == 0)).any(axis=1)
    top_master = ((unseen & ~hand) & _STRONGER.take(np.maximum(top_card, 0))) == _ZERO
    friend_wins = ((friends >> winner) & 1) != 0
    safe = friend_wins & (~danger | top_master)
    following = cards & (_SUIT[None, :] == led[:, None])
    plain_f = following & ~master
    plain_f = np.where(plain_f.any(axis=1)[:, None], plain_f, following)
    load = _best(plain_f, _key(th, -st), highest=True)
    beaters = following & (st > top_strength[:, None])
    take = beaters.any(axis=1) & ~friend_wins
    cheapest_beater = _best(beaters, _key(st, -th), highest=False)
    master_beaters = beaters & master
    weakest_master = _best(master_beaters, _key(st), highest=False)
    strongest = _best(beaters, _key(st), highest=True)
    lowest = _best(following, _key(th, st), highest=False)
    follow_card = np.where(
        safe,
        load,
        np.where(
            take & ~danger,
            cheapest_beater,
            np.where(
                take & master_beaters.any(axis=1),
                weakest_master,
                np.where(take & (in_trick >= 3), strongest, lowest),
            ),
        ),
    )
    # Void in the led suit: 6. throw points to a safe friend, else the cheapest card, from the longest suit.
    plain = cards & ~master
    plain = np.where(plain.any(axis=1)[:, None], plain, cards)
    throw = _best(plain, _key(th, -st), highest=True)
    cheap = _best(cards, _key(th, st, -lengths), highest=False)
    void_card = np.where(safe, throw, cheap)
    return np.where(count == 0, lead, np.where(following.any(axis=1), follow_card, void_card))
