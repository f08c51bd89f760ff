"""One seat's observation as a flat vector of 0s and 1s, built from a ``SeatView`` only.

Every game of the family builds its observation from the same named pieces
(``Observation``), sized by its table: N seats, S sides, T tricks. Seats are relative to
the observer: 0 = you, then the seats in play order (1 = the seat after you, on your
right). Pieces by side list your side first, then the others in the order of their first
seat after you; pieces by competitor (the match scores) likewise. A game adds pieces of its
own at the end (the stock, a dummy's seat...). ``layout_table()`` writes each layout's
table (the docs show them; a test keeps them equal).

Every entry is 0 or 1 (int8): numbers are thermometers, as in OpenSpiel's card
games. That keeps the encoder to one big int and one ``unpackbits``, and gives a
network the order of the numbers for free.

The four-seat game's observation (``LAYOUT``, ``SIZE``, ``encode``): relative seats
0 = you, 1 = the opponent after you (your right), 2 = your partner, 3 = the opponent
before you; pieces by team list your team first.

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (4, 40) | 40:200 | the cards on the table in the current trick, by relative seat |
| `leader` | (4,) | 200:204 | one-hot: the relative seat that leads the current trick |
| `played` | (4, 40) | 204:364 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (4, 4, 3) | 364:412 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (4, 4) | 412:428 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `accusi` | (4, 40) | 428:588 | the cards each relative seat's declarations revealed |
| `trick_number` | (10,) | 588:598 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `declared_points` | (2, 20) | 598:638 | declaration points (your team, the other) as thermometers: entry k is 1 when more than k |
| `thirds` | (2, 35) | 638:708 | thirds of a point taken this hand (your team, the other) as thermometers |
| `to_target` | (2, 41) | 708:790 | match points each team still needs to reach `target_score` (yours, the other) as thermometers capped at 41; all 0 in `episode="hand"` |

Example:
    >>> from tressette_env.engine import new_game, view
    >>> obs = encode(view(new_game(seed=0), 1))
    >>> obs.shape, obs.dtype, int(obs[piece_slices()["hand"]].sum())
    ((790,), dtype('int8'), 10)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..engine.game import private_of
from ..engine.state import GameState, PublicState, SeatView
from .layout import Piece, slices_of, table_of

THERMOMETERS = {"declared_points": 20, "thirds": 35, "to_target": 41}
"""Width of each thermometer piece: a value v sets its first min(v, width) entries."""


def thermometer(value: int, width: int) -> int:
    """``width`` bits of which the lowest ``min(value, width)`` are set."""
    return (1 << min(value, width)) - 1


def unpack(bits: int, size: int) -> np.ndarray:
    """The first ``size`` bits of ``bits`` as an int8 array of 0s and 1s (bit i -> entry i)."""
    # Positional arguments: NumPy's keyword parsing costs as much as the work here.
    packed = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(packed, -1, size, "little").view(np.int8)


class ExtraPiece(NamedTuple):
    """A game's own piece of the observation: its description and what fills it.

    ``fill(public, seat, hand)`` returns the piece's bits (bit i = entry i of the piece),
    from what the seat may know only; with ``private=True``, ``fill(public, seat, hand,
    private)``, where ``private`` is the seat's ``SeatView.private`` (``Game.private_of``).
    With ``of_table=True`` the fill reads ``public.table`` and ``seat`` and nothing else (the
    auction, the contract, the call: what stays the same through a hand's card play): the
    encoder keeps each seat's bits of those pieces while ``public.table`` (an immutable
    record) is the same object, and calls the fills again when it changes.
    ``tests/encoders/test_of_table.py`` checks every such fill on a stand-in that has only a table.
    With ``of_turn=True`` the fill reads ``public.table``, ``public.turn`` and ``seat`` and
    nothing else (whose turn it is, as the seat sees it): a mirror of the card play
    (``envs.mirror``) fills it once a hand for every turn 0..seats-1 and watched seat (turns
    the hand may never reach included), given a record of the table and the turn alone (and
    ``hand`` 0), and sets each watched seat's after each card from that table; the same test
    checks it on a stand-in that has only those two.
    With ``played_out=True`` the piece is a set of cards (shape ``(40,)``) that the card play
    only shrinks, and only by the card played: a card played leaves it, and nothing else of the
    card play changes it (Calabresella's and a perdere's ``face_down_known``, private pieces); a
    mirror of the card play clears the card's bit after each card instead of filling it again.
    With ``changed_by=cards_of(table)`` (a function of ``public.table`` returning a card mask)
    the card play changes the piece only when one of those cards is played, and every other card
    leaves it as it is (``lambda table: 0``: the card play never changes it). A mirror of the card
    play asks each such piece for its cards once, when it starts on a hand (the table does not
    change in the card play), and after any of those cards fills every such piece again from
    the whole state (a chiamare's ``role`` and ``partner``, which the called card reveals).
    ``tests/encoders/test_of_table.py`` checks every ``played_out`` and ``changed_by`` piece
    card by card over whole hands of every rule set; ``tests/envs/test_mirror.py`` pins the
    environments that use them to the rules core.
    """

    piece: Piece
    fill: Callable[..., int]
    private: bool = False
    of_table: bool = False
    of_turn: bool = False
    played_out: bool = False
    changed_by: Callable[[Any], int] | None = None


class Encoded:
    """What every observation object offers over its ``layout``, ``slices``, ``size``, ``bits`` and ``takes_private``."""

    layout: tuple[Piece, ...]
    slices: dict[str, slice]
    size: int
    takes_private: bool
    bits: Callable[..., int]

    def table(self) -> str:
        """The Markdown table of the layout (piece, shape, slice, meaning)."""
        return table_of(self.layout)

    def unflatten(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Name -> piece of an observation vector, reshaped to the piece's shape."""
        return {p.name: obs[..., self.slices[p.name]].reshape(obs.shape[:-1] + p.shape) for p in self.layout}

    def encode(self, view: SeatView) -> np.ndarray:
        """The observation of ``view``: an int8 vector of 0s and 1s, shape ``(size,)``."""
        if self.takes_private:
            return unpack(self.bits(view.public, view.seat, view.hand, view.private), self.size)
        return unpack(self.bits(view.public, view.seat, view.hand), self.size)

    def seat_bits(self, game: GameState, seat: int) -> int:
        """The observation bits of ``seat`` in the whole state ``game`` (the environments' one way to it).

        Its hand, the public state and what it alone knows (``private_of``), as ``encode`` of its view.
        """
        if self.takes_private:
            return self.bits(game.public, seat, game.hands[seat], private_of(game, seat))
        return self.bits(game.public, seat, game.hands[seat])


class Observation(Encoded):
    """The observation of one game (and rule set): its layout and its encoder.

    Args:
        seats: seats at the table (N).
        sides: sides (S) of the pieces by side (``declared_points``, ``thirds``).
        tricks: tricks in a hand (T, the ``trick_number`` piece).
        competitors: competitors of the ``to_target`` piece (match scores).
        signals: include the ``signals`` piece (the game has signals).
        accusi: include the ``accusi`` and ``declared_points`` pieces.
        exposed: include the ``exposed`` piece (cards lying face up in a seat's hand).
        extras: the game's own pieces, after the others.
        competitor_of: for each seat, whose match score it plays for (in the ``PublicState``,
            a function of the table and the seat); default: its side.
        side_word, competitor_word: what a side and a competitor are called in the table
            ("team" in the four-seat game).
        layout: (seats, sides, tricks) to size the pieces by, when several tables of one game
            share a layout (players dropping out of a match); default: this table's.
        thirds_width: entries of each side's thirds thermometer (35: a hand's thirds).
    """

    def __init__(
        self,
        seats: int,
        sides: int,
        tricks: int,
        competitors: int,
        *,
        signals: bool = True,
        accusi: bool = True,
        exposed: bool = False,
        extras: Sequence[ExtraPiece] = (),
        competitor_of: Callable[[PublicState, int], int] | None = None,
        side_word: str = "side",
        competitor_word: str = "player",
        layout: tuple[int, int, int] | None = None,
        thirds_width: int = THERMOMETERS["thirds"],
    ):
        self.seats, self.sides, self.tricks, self.competitors = seats, sides, tricks, competitors
        self.thirds_width = thirds_width
        # The pieces' sizes: the table's, or (``layout``) larger ones shared by several tables
        # (a game whose players drop out): the seats, sides and tricks beyond this table's stay 0.
        seats, sides, tricks = layout or (seats, sides, tricks)
        if sides == 2:
            yours = "your team, the other" if side_word == "team" else "yours, the other's"
        else:
            yours = "yours first"
        pieces = [
            Piece("hand", (40,), "1 for each card id in your hand"),
            Piece("trick", (seats, 40), "the cards on the table in the current trick, by relative seat"),
            Piece("leader", (seats,), "one-hot: the relative seat that leads the current trick"),
            Piece(
                "played",
                (seats, 40),
                "every card each relative seat has played this hand (the current trick included)",
            ),
        ]
        if signals:
            pieces.append(
                Piece(
                    "signals", (seats, 4, 3), "relative seat x suit x (busso, striscio, volo): signals given this hand"
                )
            )
        pieces.append(
            Piece("voids", (seats, 4), "relative seat x suit: the seat failed to follow that suit, so it has none left")
        )
        if accusi:
            pieces.append(Piece("accusi", (seats, 40), "the cards each relative seat's declarations revealed"))
        if exposed:
            pieces.append(Piece("exposed", (seats, 40), "the cards lying face up in each relative seat's hand"))
        pieces.append(
            Piece(
                "trick_number",
                (tricks,),
                "one-hot: which trick of the hand is being played (all 0 once the hand is over)",
            )
        )
        if accusi:
            pieces.append(
                Piece(
                    "declared_points",
                    (sides, 20),
                    f"declaration points ({yours}) as thermometers: entry k is 1 when more than k",
                )
            )
        pieces.append(
            Piece("thirds", (sides, thirds_width), f"thirds of a point taken this hand ({yours}) as thermometers")
        )
        whose = competitor_word
        ours = "yours, the other" if competitors == 2 else "yours first"
        pieces.append(
            Piece(
                "to_target",
                (competitors, 41),
                f"match points each {whose} still needs to reach `target_score` ({ours}) as thermometers "
                'capped at 41; all 0 in `episode="hand"`',
            )
        )
        pieces += [extra.piece for extra in extras]
        self.layout: tuple[Piece, ...] = tuple(pieces)
        self.slices = slices_of(self.layout)
        self.size = sum(p.size for p in self.layout)
        self.extras = tuple(extras)
        for extra in self.extras:
            if extra.of_table and extra.private:
                raise ValueError(
                    f"observation piece {extra.piece.name!r}: of_table=True reads only the table, private=True "
                    "the seat's private cards; a piece is one or the other"
                )
            if extra.of_turn and (extra.of_table or extra.private):
                raise ValueError(
                    f"observation piece {extra.piece.name!r}: of_turn=True reads only the table and the turn "
                    "(it changes with each card); it is neither of_table=True nor private=True"
                )
            if extra.changed_by is not None and (extra.of_table or extra.of_turn or extra.played_out):
                raise ValueError(
                    f"observation piece {extra.piece.name!r}: changed_by names the cards whose play changes it; "
                    "a piece of the table, of the turn or played_out says how it changes already"
                )
            if extra.played_out and (extra.of_table or extra.of_turn or extra.piece.shape != (40,)):
                raise ValueError(
                    f"observation piece {extra.piece.name!r}: played_out=True is a set of cards, shape (40,), that "
                    "each card played leaves; it is neither of_table=True nor of_turn=True"
                )
        self.takes_private = any(extra.private for extra in self.extras)
        """True when ``bits`` takes a fourth argument, the seat's ``SeatView.private``."""
        self.bits = self._make_encoder(signals, accusi, exposed, competitor_of)

    def _make_encoder(
        self,
        signals: bool,
        accusi: bool,
        exposed: bool,
        competitor_of: Callable[[PublicState, int], int] | None,
    ) -> Callable[[PublicState, int, int], int]:
        """The encoder, ``bits(public, seat, hand) -> int`` (bit i = entry i of the vector).

        This is the environments' hot path, so the function is written for this layout:
        the lines of the pieces it has, with the offsets and widths as numbers, compiled
        once (``self.source`` is the code). Written out as one general function with a test
        per optional piece, it ran 7% more bytecodes per observation in the four-seat game.
        ``state.rotate_seats`` and ``thermometer`` are written out inline;
        ``tests/encoders`` checks the result against a plain encoder piece by piece.
        """
        off = {name: s.start for name, s in self.slices.items()}
        n, n_comp = self.seats, self.competitors
        w_declared, w_thirds, w_target = (
            THERMOMETERS["declared_points"],
            self.thirds_width,
            THERMOMETERS["to_target"],
        )
        names = {"n": n, "b40": 40 * n, "b12": 12 * n, "b4": 4 * n, "m40": hex((1 << 40 * n) - 1),
                 "m12": hex((1 << 12 * n) - 1), "m4": hex((1 << 4 * n) - 1), "wd": w_declared, "wt": w_thirds, "wm": w_target,
                 "trick_last": off["trick"] + 40 * (n - 1), "nc": n_comp}  # fmt: skip
        names.update({f"{name}_at": at for name, at in off.items()})
        names["declared_at2"] = off.get("declared_points", 0) + w_declared
        # Declared points (a few dozen at most) as a thermometer: ``(1 << d) - 1`` cut to its width,
        # ``thermometer`` without its ``min`` call. (``to_target`` keeps ``min``: a match's target
        # may be any int, and ``1 << target`` would be as long.)
        names["mwd"] = hex((1 << w_declared) - 1)
        names["thirds_at2"] = off["thirds"] + w_thirds
        names["target_at2"] = off["to_target"] + w_target

        def rotate(field: str, width: str, at: str) -> str:
            return f"    x = {field}\n    bits |= (((x >> s) | (x << ({{b{width}}} - s))) & {{m{width}}}) << {{{at}}}\n"

        lines = [
            "def bits(p, me, hand, private=0):\n" if self.takes_private else "def bits(p, me, hand):\n",
            "    bits = hand\n",
            "    leader = p.leader\n",
            "    trick = p.trick\n",
            "    if trick:\n",
            "        at = {trick_at} + 40 * ((leader - me) % {n})  # first card: the leader's block\n",
            "        for card in trick:\n",
            "            bits |= 1 << (at + card)\n",
            "            at = at + 40 if at < {trick_last} else {trick_at}\n",
            "    if p.turn >= 0:\n",
            "        bits |= 1 << ({leader_at} + (leader - me) % {n}) | 1 << ({trick_number_at} + p.tricks_done)\n",
            "    # Per-seat facts: rotate the N seat blocks so that block 0 is the observer.\n",
            "    s = 40 * me\n",
            rotate("p.played", "40", "played_at"),
        ]
        if accusi:
            lines.append(rotate("p.accusi.revealed", "40", "accusi_at"))
        if exposed:
            lines.append(rotate("p.exposed", "40", "exposed_at"))
        if signals:
            lines += ["    s = 12 * me\n", rotate("p.signals", "12", "signals_at")]
        lines += ["    s = 4 * me\n", rotate("p.voids", "4", "voids_at"), "    t = p.thirds\n"]
        # Side numbers as thermometers, own side first.
        if self.sides == 2:
            lines += ["    side = p.table.sides[me]\n", "    other = 1 - side\n"]
            if accusi:
                lines += [
                    "    d = p.accusi.points\n",
                    "    bits |= ((1 << d[side]) - 1 & {mwd}) << {declared_points_at}\n",
                    "    bits |= ((1 << d[other]) - 1 & {mwd}) << {declared_at2}\n",
                ]
            lines.append("    bits |= ((1 << t[side]) - 1) << {thirds_at} | ((1 << t[other]) - 1) << {thirds_at2}\n")
        else:
            lines += [
                "    order = side_order(p.table.sides, me)\n",
                "    side = order[0]\n",
                "    for k, s in enumerate(order):\n",
            ]
            if accusi:
                lines.append(
                    "        bits |= ((1 << p.accusi.points[s]) - 1 & {mwd}) << ({declared_points_at} + {wd} * k)\n"
                )
            lines.append("        bits |= ((1 << t[s]) - 1) << ({thirds_at} + {wt} * k)\n")
        lines += [
            "    rules = p.rules\n",
            "    if rules.episode == 'match':\n",
            "        score = p.match_score\n",
            "        target = rules.target_score\n",
            "        mine = " + ("side\n" if competitor_of is None else "competitor_of(p, me)\n"),
        ]
        if n_comp == 2:
            lines += [
                "        bits |= ((1 << min(max(target - score[mine], 0), {wm})) - 1) << {to_target_at}\n",
                "        bits |= ((1 << min(max(target - score[1 - mine], 0), {wm})) - 1) << {target_at2}\n",
            ]
        else:
            lines += [
                "        for k in range({nc}):\n",
                "            need = max(target - score[(mine + k) % {nc}], 0)\n",
                "            bits |= ((1 << min(need, {wm})) - 1) << ({to_target_at} + {wm} * k)\n",
            ]
        of_table = [k for k, extra in enumerate(self.extras) if extra.of_table]
        if of_table:  # kept per seat as (table, bits): one tuple, replaced whole (safe across threads)
            joined = " | ".join(f"extra_{k}(p, me, hand) << {{{self.extras[k].piece.name}_at}}" for k in of_table)
            lines += [
                "    kept = table_bits[me]\n",
                "    if kept[0] is p.table:\n",
                "        bits |= kept[1]\n",
                "    else:\n",
                f"        x = {joined}\n",
                "        table_bits[me] = (p.table, x)\n",
                "        bits |= x\n",
            ]
        for k, extra in enumerate(self.extras):
            if extra.of_table:
                continue
            args = "p, me, hand, private" if extra.private else "p, me, hand"
            lines.append(f"    bits |= extra_{k}({args}) << {{{extra.piece.name}_at}}\n")
        lines.append("    return bits\n")
        self.source = "".join(lines).format(**names)
        namespace: dict = {"side_order": side_order, "competitor_of": competitor_of, "min": min, "max": max}
        namespace["table_bits"] = [(None, 0)] * n
        namespace.update({f"extra_{k}": extra.fill for k, extra in enumerate(self.extras)})
        exec(compile(self.source, f"<observation encoder: {n} seats>", "exec"), namespace)  # our own code, see above
        return namespace["bits"]


@cache
def side_order(sides: tuple[int, ...], me: int) -> tuple[int, ...]:
    """The sides (``Table.sides``, one per seat) from seat ``me``'s point of view: its own first, then by their first seat after it.

    Cached: a game has a few seatings, and the encoder asks at every observation.
    """
    n = len(sides)
    order: list[int] = []
    for k in range(n):
        side = sides[(me + k) % n]
        if side not in order:
            order.append(side)
    return tuple(order)


CLASSIC = Observation(4, 2, 10, 2, side_word="team", competitor_word="team")
"""The four-seat game's observation (the table in the module docstring)."""
LAYOUT: tuple[Piece, ...] = CLASSIC.layout


def piece_slices() -> dict[str, slice]:
    """Name -> slice of the four-seat observation vector, in layout order."""
    return slices_of(LAYOUT)


SLICES = piece_slices()
SIZE = CLASSIC.size
encode_seat_bits = CLASSIC.bits
"""``encode_bits`` of the view ``SeatView(me, hand, p)``, without building the view (the hot path)."""


def layout_table() -> str:
    """The Markdown table of the four-seat layout (piece, shape, slice, meaning)."""
    return CLASSIC.table()


def unflatten(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Name -> piece of a four-seat observation vector, reshaped to the piece's shape."""
    return CLASSIC.unflatten(obs)


def encode_bits(view: SeatView) -> int:
    """The observation of ``view`` as an int: bit i is entry i of the vector."""
    return encode_seat_bits(view.public, view.seat, view.hand)


def encode(view: SeatView) -> np.ndarray:
    """The four-seat observation of ``view``: an int8 vector of 0s and 1s, shape ``(SIZE,)``."""
    return unpack(encode_bits(view), SIZE)
