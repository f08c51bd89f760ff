"""Named pieces of a flat vector: the one description both the encoders and the docs tables use."""

from __future__ import annotations

from math import prod
from typing import NamedTuple


class Piece(NamedTuple):
    """A named piece of a flat vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return prod(self.shape)


def slices_of(layout: tuple[Piece, ...]) -> dict[str, slice]:
    """Name -> slice of the vector, pieces laid out one after the other."""
    out, start = {}, 0
    for piece in layout:
        out[piece.name] = slice(start, start + piece.size)
        start += piece.size
    return out


def table_of(layout: tuple[Piece, ...]) -> str:
    """The Markdown table of a layout: piece, shape, slice, meaning."""
    rows = ["| piece | shape | slice | meaning |", "| --- | --- | --- | --- |"]
    for piece, s in zip(layout, slices_of(layout).values(), strict=True):
        rows.append(f"| `{piece.name}` | {piece.shape} | {s.start}:{s.stop} | {piece.meaning} |")
    return "\n".join(rows)
