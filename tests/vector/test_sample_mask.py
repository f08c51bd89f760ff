"""The batches' random draws: ``vector.sample_mask``, the k-th legal action of each row, k = floor(u * legal)
for one uniform a row, and the helpers behind it and behind the batches' shuffles.

The random players of the vector environments and of team play draw with it, so its
actions are pinned here to the definition, row by row in plain Python, for masks of every
width the games use and widths around the 64-bit words it packs them into; so are
``_family.select_low``, ``select_high`` (``engine.select_bit``) and ``random_set_bits`` (the family's
``sample_actions``), and
``_family.key_order`` to the stable sort of the keys it replaced (every deal's shuffle).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.vector import sample_mask, select_bit
from tressette_env.vector._family import key_order, random_set_bits, select_high, select_low


def by_definition(mask: np.ndarray, seed: int) -> list[int]:
    """Row by row: the legal ids in order, and the one at floor(u * count) for the row's uniform."""
    uniforms = np.random.default_rng(seed).random(len(mask))
    out = []
    for row, u in zip(mask, uniforms, strict=True):
        legal = [a for a, x in enumerate(row) if x != 0]
        out.append(legal[int(u * len(legal))] if legal else -1)
    return out


@settings(max_examples=150, deadline=None)
@given(
    width=st.sampled_from([1, 7, 40, 63, 64, 65, 128, 161, 255, 256, 300]),
    rows=st.sampled_from([1, 2, 5, 63, 64, 65, 200]),  # both sides of _PACKED_FROM
    density=st.floats(0.0, 1.0),
    dtype=st.sampled_from([np.int8, np.bool_, np.uint8, np.int64, np.float32]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_k_th_legal_action_of_each_row(width, rows, density, dtype, seed):
    rng = np.random.default_rng(seed)
    mask = (rng.random((rows, width)) < density).astype(dtype)
    mask[rng.random(rows) < 0.2] = 0  # some rows with no legal action: -1
    got = sample_mask(mask, np.random.default_rng(seed + 1))
    assert got.tolist() == by_definition(mask, seed + 1)


def test_every_legal_action_is_drawn_and_no_other():
    mask = np.zeros((20000, 255), dtype=np.int8)
    legal = [3, 64, 127, 128, 200, 254]
    mask[:, legal] = 1
    drawn = np.bincount(sample_mask(mask, np.random.default_rng(0)), minlength=255)
    assert set(np.flatnonzero(drawn)) == set(legal)
    assert drawn[legal].min() > 20000 / len(legal) * 0.9


@pytest.mark.parametrize("value", [2, -1])
def test_any_nonzero_entry_is_legal(value):
    mask = np.zeros((3, 70), dtype=np.int8)
    mask[:, 66] = value
    assert sample_mask(mask, np.random.default_rng(0)).tolist() == [66, 66, 66]


@settings(max_examples=100, deadline=None)
@given(
    rows=st.sampled_from([1, 3, 64, 200]),
    density=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_select_low_is_the_k_th_lowest_set_bit(rows, density, seed):
    rng = np.random.default_rng(seed)
    bits = rng.random((rows, 64)) < density
    bits[:, rng.integers(0, 64, rows)] = True  # every word has a set bit
    words = np.packbits(bits, axis=1, bitorder="little").view("<u8").reshape(-1)
    counts = bits.sum(axis=1)
    k = (rng.random(rows) * counts).astype(np.int64)
    expected = [int(np.flatnonzero(row)[j]) for row, j in zip(bits, k, strict=True)]
    assert select_low(words, k).tolist() == expected
    assert select_low(words, k).dtype == np.int64


@settings(max_examples=100, deadline=None)
@given(
    rows=st.sampled_from([1, 3, 64, 200]),
    density=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_select_high_is_the_k_th_highest_set_bit_counted_from_the_top(rows, density, seed):
    """``select_high`` (the four-seat ``select_bit``): the k-th set bit from the top, its place from bit 63 down."""
    rng = np.random.default_rng(seed)
    bits = rng.random((rows, 64)) < density  # bits[:, j]: the word's bit 63 - j
    bits[:, rng.integers(0, 64, rows)] = True
    words = np.packbits(bits, axis=1).view(">u8").astype(np.uint64).reshape(-1)
    k = (rng.random(rows) * bits.sum(axis=1)).astype(np.int64)
    expected = [int(np.flatnonzero(row)[j]) for row, j in zip(bits, k, strict=True)]
    assert select_high(words, k).tolist() == expected
    assert select_bit(words, k).tolist() == expected
    assert select_bit(words, k).dtype == np.int64


@pytest.mark.parametrize("select", [select_low, select_high])
def test_a_k_past_the_set_bits_gives_a_place_in_the_word_and_no_error(select):
    """Rows whose result is thrown away (no legal action, a block not drawn) may ask past their bits: 0..63, no error."""
    words = np.array([0, 1, 1 << 63, (1 << 64) - 1, 0x00FF00000000FF00], dtype=np.uint64)
    for k in (0, 1, 7, 8, 40, 63):
        got = select(words, np.full(len(words), k))
        assert ((got >= 0) & (got < 64)).all()
    assert select(words[3:4], np.array([63])).tolist() == [63]


@settings(max_examples=100, deadline=None)
@given(
    width=st.integers(1, 5),
    rows=st.sampled_from([1, 2, 65, 300]),
    density=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_set_bits_is_the_k_th_set_bit_of_the_words(width, rows, density, seed):
    """``_family.random_set_bits`` over (M, W) words, any W (the engines' legal words have 4): the definition."""
    rng = np.random.default_rng(seed)
    bits = rng.random((rows, 64 * width)) < density
    bits[rng.random(rows) < 0.2] = False  # rows with none: -1
    words = np.packbits(bits, axis=1, bitorder="little").view("<u8")
    got = random_set_bits(words, np.random.default_rng(seed + 1))
    assert got.tolist() == by_definition(bits.astype(np.int8), seed + 1)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.sampled_from([1, 5, 300]),
    fixed_share=st.floats(0.0, 1.0),
    generator=st.sampled_from(["PCG64", "MT19937", "Philox", "SFC64", "PCG64DXSM"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_key_order_is_the_stable_sort_of_the_keys(rows, fixed_share, generator, seed):
    """``_family.key_order``: the batches' shuffles, the same deck as a stable argsort of their keys, ties included."""
    rng = np.random.Generator(getattr(np.random, generator)(seed))
    keys = rng.random((rows, 40))
    keys[:, 11] = keys[:, 3]  # a tie between two drawn keys: the lower column first, as the stable sort
    bits = rng.random((rows, 40)) < fixed_share
    fixed = (bits.astype(np.uint64) << np.arange(40, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    expected = np.argsort(np.where(bits, 2.0, keys), axis=1, kind="stable")
    assert np.array_equal(key_order(keys, fixed), expected)
    assert np.array_equal(key_order(keys), np.argsort(keys, axis=1, kind="stable"))


def test_a_mask_of_more_than_32767_legal_entries_in_a_few_rows():
    """The running count of a few rows (under ``_PACKED_FROM``) wrapped int16 past 32,767 legal entries: -1 then."""
    mask = np.ones((2, 40000), dtype=bool)
    got = sample_mask(mask, np.random.default_rng(0))
    assert got.tolist() == by_definition(mask.astype(np.int8), 0)


@pytest.mark.parametrize("mask", [np.ones(5), np.ones((2, 3, 4)), [[1, 0], [1]]])
def test_a_mask_is_a_table_of_rows(mask):
    with pytest.raises(ValueError, match=r"mask must be \(M, A\)|inhomogeneous"):
        sample_mask(mask, np.random.default_rng(0))


def test_a_mask_of_no_columns_has_no_legal_action_and_rng_must_draw():
    assert sample_mask(np.zeros((3, 0)), np.random.default_rng(0)).tolist() == [-1, -1, -1]
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        sample_mask(np.ones((3, 4)), None)
