"""The NumPy idioms the family's batched engines pick, timed against the ones they replace, at M = 4096 rows.

Each pair computes the same array (checked) the way the engines did before and the way they do
now: at 968efa9 before ``vector._family``'s ``SeatTables``, ``or_columns``, ``unpack_little``
and flat ``take`` gathers; at e2939b7 before ``max_columns``, ``vector._side_play.side_card``'s
choice and ``sample_mask``'s packed words; at 135a28e before ``random_set_bits``'s loop over
the words, ``select_low``'s uint8 counts, ``close_tricks``'s loop for the winner and
``key_order``'s shuffle; at b6da112 before ``card_bits``'s wrapping ``take``, the one-hot seat
and value fields by lookup (``SeatTables.rel_bits``, ``BIT_FROM_1``), ``LED_STRENGTH``, ``PLAY_CARD`` and the next seat without ``%``; at e7b9529 before ``select_low``'s and
``engine.select_bit``'s search by a running count by byte (``select_high``). The median
of five repeats of 200 calls each, CPU time, one thread.

    OMP_NUM_THREADS=1 python benchmarks/bench_numpy_idioms.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from tressette_env.vector import sample_mask
from tressette_env.vector._family import (
    BIT_FROM_1,
    THERMO,
    SeatTables,
    key_order,
    max_columns,
    random_set_bits,
    select_high,
    select_low,
)
from tressette_env.vector._tricks import CARD_BIT, LED_STRENGTH, PLAY_CARD, STRENGTH, card_bits

M, S = 4096, 4


def select_low_int64(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``_family.select_low`` at 135a28e (before 687e552): the same binary search with its counts in int64."""
    x = np.array(words, dtype=np.uint64)
    k = np.array(k, dtype=np.int64)
    pos = np.zeros(len(x), dtype=np.int64)
    for half in (32, 16, 8, 4, 2, 1):
        low = np.bitwise_count(x & THERMO[half]).astype(np.int64)
        up = k >= low
        k = k - low * up
        step = half * up
        pos += step
        x = x >> step.astype(np.uint64)
    return pos


def select_low_halvings(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``_family.select_low`` at e7b9529: a binary search in six halvings, its counts and shifts in uint8."""
    x = np.array(words, dtype=np.uint64)
    k = np.asarray(k).astype(np.uint8)
    pos = np.zeros(len(x), dtype=np.uint8)
    for half in (32, 16, 8, 4, 2, 1):
        low = np.bitwise_count(x & THERMO[half])
        up = k >= low
        step = up * np.uint8(half)
        k -= low * up
        pos += step
        x >>= step
    return pos.astype(np.int64)


def select_bit_int64(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``engine.select_bit`` at e7b9529: the k-th set bit from the top by a binary search in int64."""
    x = np.array(words, dtype=np.uint64)
    k = np.array(k, dtype=np.int64)
    pos = np.zeros(len(x), dtype=np.int64)
    for half in (32, 16, 8, 4, 2, 1):
        upper = np.bitwise_count(x >> np.uint64(64 - half)).astype(np.int64)
        lower = k >= upper
        k -= upper * lower
        step = half * lower
        pos += step
        x <<= step.view(np.uint64)
    return pos


def random_set_bits_cumsum(words: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """``_family.random_set_bits`` at 135a28e (before 687e552): a running count along the rows' axis."""
    m, width = words.shape
    upto = np.cumsum(np.bitwise_count(words).astype(np.int64), axis=1)
    total = upto[:, -1]
    k = (generator.random(m) * total).astype(np.int64)
    w = np.minimum((upto <= k[:, None]).sum(axis=1), width - 1)
    rows = np.arange(m)
    before = np.where(w > 0, upto[rows, np.maximum(w - 1, 0)], 0)
    bit = select_low_int64(words[rows, w], np.maximum(k - before, 0))
    return np.where(total > 0, 64 * w + bit, -1)


def per_call_us(function, calls: int = 200, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(calls):
            function()
        times.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(0)
    cards = rng.integers(0, 1 << 40, (M, S)).astype(np.uint64)
    rows = np.arange(M)
    me = rng.integers(0, S, M)
    rel_table = (np.arange(S)[:, None] + np.arange(S)[None, :]) % S
    rel = rel_table.take(me, axis=0)
    flat = rows[:, None] * S + rel
    shifts = np.uint64(4) * np.arange(S, dtype=np.uint64)
    packed = rng.integers(0, 256, (M, 104), dtype=np.uint8)  # 832 bits a row: an observation of 830
    bids = rng.integers(0, 200, (M, S))
    scores = (rng.integers(0, 1 << 18, (M, 40)) * 64 + np.arange(40)).astype(np.int32)  # a card in the low 6 bits
    held = rng.random((M, 40)) < 0.3
    held[:, 0] = True  # every row has a candidate
    mask = (rng.random((M, 255)) < 0.05).astype(np.int8)  # a family game's legal actions, a dozen a row
    legal_words = np.packbits(mask, axis=1, bitorder="little")
    legal_words = np.pad(legal_words, ((0, 0), (0, 32 - legal_words.shape[1]))).view("<u8")  # (M, 4)
    word = rng.integers(1, 2**63, M, dtype=np.uint64)
    trick_bits = np.uint64(1) << rng.permuted(np.tile(np.arange(40, dtype=np.uint64), (M, 1)), axis=1)[:, :S]
    win = trick_bits[rows, rng.integers(0, S, M)]  # one seat's card takes each trick

    def first_seat_loop():  # vector._tricks.close_tricks's winner
        winner = np.zeros(M, dtype=np.int64)
        for s in range(S - 1, 0, -1):
            winner = np.where(trick_bits[:, s] == win, s, winner)
        return winner

    kth = (rng.random(M) * np.bitwise_count(word)).astype(np.int64)
    deck_keys = rng.random((100, 40))  # the deals of a step whose hands ended (about 100 of 4096)

    def running_count(generator):  # sample_mask before it packed the mask into words
        running = np.cumsum(mask != 0, axis=1, dtype=np.int16)
        total = running[:, -1]
        k = (generator.random(M) * total).astype(np.int16)
        return np.where(total > 0, (running <= k[:, None]).sum(axis=1), -1)

    def or_loop():
        out = cards[:, 0].copy()
        for k in range(1, S):
            out |= cards[:, k] << shifts[k]
        return out

    trick_ids = rng.integers(-1, 40, (M, 5))  # a chiamare's trick: five seats' card ids, -1 none
    led = rng.integers(-1, 4, M)
    suit_of = np.array([c // 10 for c in range(40)] + [-1])
    seat = rng.integers(-1, S, M)  # a seat field's seat (a soloist, a declarer), -1 none
    mod_table = np.arange(3 * S, dtype=np.int64) % S
    seats_of = SeatTables.of(S)
    phase = rng.integers(0, 8, M)
    actions = rng.integers(0, 255, M)

    pairs = [
        ("seat arithmetic: (me + k) % S vs a (S, S) table's take", lambda: (me[:, None] + np.arange(S)) % S,
         lambda: rel_table.take(me, axis=0)),
        ("gather by seat: x[rows[:, None], rel] vs x.reshape(-1).take(flat)", lambda: cards[rows[:, None], rel],
         lambda: cards.reshape(-1).take(flat)),
        ("OR of S shifted columns: np.bitwise_or.reduce(axis=1) vs a loop", lambda: np.bitwise_or.reduce(
            cards << shifts, axis=1), or_loop),
        ("unpack 104 bytes a row: np.unpackbits(axis=1) vs one flat np.unpackbits",
         lambda: np.unpackbits(packed, axis=1, bitorder="little"),
         lambda: np.unpackbits(packed.reshape(-1), bitorder="little").reshape(M, -1)),
        ("largest of S columns: x.max(axis=1) vs a loop of np.maximum", lambda: bids.max(axis=1),
         lambda: max_columns(bids)),
        ("the least candidate's card: np.where + argmin vs OR bit 30 + min, the card in the low bits",
         lambda: np.where(held, scores, np.int32(2**31 - 1)).argmin(axis=1),
         lambda: ((scores | ((~held).astype(np.int32) << 30)).min(axis=1) & 63).astype(np.int64)),
        ("a random legal action a row of (M, 255): sample_mask's running count vs its packed words (a new rng each)",
         lambda: running_count(np.random.default_rng(0)), lambda: sample_mask(mask, np.random.default_rng(0))),
        ("the seat holding a trick's winning card: (bits == win).argmax(axis=1) vs a loop of np.where",
         lambda: (trick_bits == win[:, None]).argmax(axis=1), first_seat_loop),
        ("a shuffled deck of 100 x 40 keys: a stable argsort vs key_order's exact integer keys, unstable",
         lambda: np.argsort(deck_keys, axis=1, kind="stable"), lambda: key_order(deck_keys)),
        ("the k-th set bit of a word: select_low's binary search in int64 vs in uint8",
         lambda: select_low_int64(word, kth), lambda: select_low_halvings(word, kth)),
        ("the k-th set bit of a word: select_low's binary search in uint8 vs its running count by byte",
         lambda: select_low_halvings(word, kth), lambda: select_low(word, kth)),
        ("the k-th set bit from the top: select_bit's binary search in int64 vs select_high's count by byte",
         lambda: select_bit_int64(word, kth), lambda: select_high(word, kth)),
        ("a random set bit of (M, 4) legal words: a running count along the rows vs a loop over the words",
         lambda: random_set_bits_cumsum(legal_words, np.random.default_rng(0)),
         lambda: random_set_bits(legal_words, np.random.default_rng(0))),
        ("the bit of each card id of (M, 5), -1 none: np.where to index 40, then take vs take(mode='wrap')",
         lambda: CARD_BIT.take(np.where(trick_ids < 0, 40, trick_ids)), lambda: card_bits(trick_ids)),
        ("(M, 5) cards' strengths in the led suit: suit and STRENGTH lookups and a where vs LED_STRENGTH",
         lambda: np.where(suit_of.take(trick_ids) == led[:, None], STRENGTH.take(trick_ids), -1),
         lambda: LED_STRENGTH.take((led * 41 + 42)[:, None] + trick_ids)),
        ("a one-hot relative seat, -1 none: a where of a shifted mod lookup vs SeatTables.rel_bits",
         lambda: np.where(seat >= 0, np.uint64(1) << mod_table.take(np.maximum(seat, 0) - me + S).astype(np.uint64),
                          np.uint64(0)),
         lambda: seats_of.rel_bits(seat, me)),
        ("a one-hot of a value counted from 1, 0 none: a where of a shift vs BIT_FROM_1's take",
         lambda: np.where(phase > 0, np.uint64(1) << np.maximum(phase - 1, 0).astype(np.uint64), np.uint64(0)),
         lambda: BIT_FROM_1.take(phase)),
        ("the card of an action id: NumPy's integer a % 40 vs PLAY_CARD's take", lambda: actions % 40,
         lambda: PLAY_CARD.take(actions)),
        ("the next seat: (seat + 1) % S vs a comparison and a where", lambda: (me + 1) % S,
         lambda: np.where(me + 1 == S, 0, me + 1)),
    ]  # fmt: skip
    print(f"| idiom, M = {M} (before, after) | before µs | after µs | before / after |")
    print("| --- | ---: | ---: | ---: |")
    for name, before, after in pairs:
        assert np.array_equal(before(), after()), name
        b, a = per_call_us(before), per_call_us(after)
        print(f"| {name} | {b:.1f} | {a:.1f} | {b / a:.1f}x |")
    unpack = per_call_us(pairs[3][2])
    print(f"\nthe flat unpack of one {8 * packed.shape[1]}-bit row: {unpack / M * 1e3:.0f} ns")


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options: --help says what it does
    main()
