"""Hand-built deals and scripted play for the rule tests; the repository's scripts loaded as modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tressette_env.engine import (
    BUSSO,
    CALL_OUT,
    NO_SIGNAL,
    PLAYING,
    STRISCIO,
    VOLO,
    GameState,
    apply,
    cards_of,
    legal_actions,
    parse_card,
    parse_cards,
)

SIGNALS = {"busso": BUSSO, "striscio": STRISCIO, "volo": VOLO}


def face_up_first(public, seat: int, legal) -> list[int]:
    """Of ``legal`` (action ids), the plays of cards lying face up in ``seat``'s hand (in due's packet tops, shown
    draws), or all of ``legal`` where it has none: a player who plays them first empties in due's packets early."""
    up = public.table.exposed >> (40 * seat) & ((1 << 40) - 1)
    legal = [int(a) for a in legal]
    return [a for a in legal if a < CALL_OUT and up >> a % 40 & 1] or legal


def hands(*codes: str) -> list[list[int]]:
    """Four hands from four strings of card codes ('3d 2d Ad ...'), seat 0 first."""
    assert len(codes) == 4
    return [cards_of(parse_cards(text)) for text in codes]


def fill(**partial: str) -> list[list[int]]:
    """A full deal that gives seat_0..seat_3 the named cards and the rest of the deck in id order.

    ``fill(seat_0="3d Ad", seat_1="Rd")``: the other cards are dealt lowest id first to the
    seats that still need cards, seat 0 first.
    """
    out = [cards_of(parse_cards(partial.get(f"seat_{s}", ""))) for s in range(4)]
    used = {c for h in out for c in h}
    rest = [c for c in range(40) if c not in used]
    for hand in out:
        while len(hand) < 10:
            hand.append(rest.pop(0))
    assert not rest
    return out


# Each seat holds one whole suit: the leader takes every trick (nobody can follow).
SUITS_DEAL = hands(
    "Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd",
    "Ac 2c 3c 4c 5c 6c 7c Fc Cc Rc",
    "As 2s 3s 4s 5s 6s 7s Fs Cs Rs",
    "Ab 2b 3b 4b 5b 6b 7b Fb Cb Rb",
)


def action(move: str) -> int:
    """The action id of a move: '3d', '3d busso', '3d striscio', '3d volo' or 'call'."""
    if move == "call":
        return CALL_OUT
    code, _, signal = move.partition(" ")
    return parse_card(code) + 40 * (SIGNALS[signal] if signal else NO_SIGNAL)


def play(state: GameState, *moves: str) -> GameState:
    """Apply the moves in order (each by the seat on turn)."""
    for move in moves:
        state = apply(state, action(move))
    return state


def play_out(state: GameState) -> GameState:
    """Finish the hand with the lowest legal card each turn (no signals)."""
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    return state


def play_trick(state: GameState, lead: str) -> GameState:
    """Lead ``lead``; the others play their lowest legal card."""
    state = play(state, lead)
    while state.public.trick:
        state = apply(state, legal_actions(state)[0])
    return state


def by_seat(tricks: list[str]) -> list[list[int]]:
    """The hands of a deal written trick by trick (each trick: one card per seat, seat 0 first)."""
    seats = len(tricks[0].split())
    return [[parse_card(trick.split()[s]) for trick in tricks] for s in range(seats)]


def play_tricks(state: GameState, tricks: list[str]) -> GameState:
    """Play the tricks in order (the card play only), each from the seat on lead round the table."""
    for trick in tricks:
        codes = trick.split()
        assert not state.public.trick and state.public.table.phase == 0
        leader = state.public.turn
        for k in range(len(codes)):
            state = apply(state, parse_card(codes[(leader + k) % len(codes)]))
    return state


def load_script(relative: str):
    """A script of the repository (``benchmarks/...``, ``scripts/...``) loaded as a module."""
    path = Path(__file__).resolve().parents[1] / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def without_model(monkeypatch, game: str = "tressette_a_chiamare") -> str:
    """Make ``game`` one with no shipped model for this test (every game of the package has one); its name."""
    from dataclasses import replace

    from tressette_env import catalog

    monkeypatch.setitem(catalog._ENTRIES, game, replace(catalog.entry(game), model=None))
    return game
