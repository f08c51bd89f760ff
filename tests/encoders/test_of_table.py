"""The observation pieces kept per seat while the table is the same (``ExtraPiece.of_table``), and those of the turn.

Two checks over random play of every game under every rule set of ``tests/games/family.py``,
the phases before the card play included:

- each fill marked ``of_table`` gives the same bits from a stand-in that has nothing but the
  table (anything else it read would raise) as from the whole public state and the hand; each
  marked ``of_turn`` (a mirror fills it once a hand for every turn, then sets it after each
  card) from one with the table and the turn;
- each fill marked ``played_out`` (a mirror clears the card played from it) changes from one
  card of the card play to the next only by losing that card; each marked ``changed_by`` (a
  mirror fills it again only after one of those cards) is the same after any other card;
- the encoder's bits, with the kept pieces, equal its bits with nothing kept (every fill
  called again), for every seat at every decision.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from tests.games.family import CASES, IDS, MODULES
from tressette_env.encoders.observation import Observation
from tressette_env.engine.game import private_of


class _NothingKept(list):
    """A stand-in for an encoder's kept pieces that never matches a table and keeps nothing."""

    def __getitem__(self, seat):
        return (None, 0)

    def __setitem__(self, seat, value):
        pass


def _observations(encoder) -> list[Observation]:
    """The generated encoders behind a game's observation (a perdere has one per number of players in)."""
    return list(encoder.by_seats.values()) if hasattr(encoder, "by_seats") else [encoder]


def _decisions(game: str, rules: dict, episodes: int, more: int = 0, wanted=None):
    """(env, public state) at every decision of ``episodes`` random episodes, then of up to ``more`` while ``wanted()``."""
    env = MODULES[game].raw_env(**rules)
    rng = random.Random(7)
    for episode in range(episodes + more):
        if episode >= episodes and not wanted():
            return
        env.reset(seed=episode)
        for agent in env.agent_iter():
            _, _, termination, truncation, _ = env.last(observe=False)
            if termination or truncation:
                env.step(None)
                continue
            yield env
            legal = [a for a in range(env.action_space(agent).n) if env._legal >> a & 1]
            env.step(rng.choice(legal))


@pytest.mark.parametrize(("game", "rules"), CASES, ids=IDS)
def test_a_piece_of_the_table_reads_the_table_and_the_seat_alone(game, rules):
    checked = 0
    for env in _decisions(game, rules, episodes=3):
        p = env.game.public
        table_only = SimpleNamespace(table=p.table)
        table_and_turn = SimpleNamespace(table=p.table, turn=p.turn)  # what a mirror has (``ExtraPiece.of_turn``)
        for observation in _observations(env._encoder):
            for extra in observation.extras:
                if not (extra.of_table or extra.of_turn):
                    continue
                stand_in = table_only if extra.of_table else table_and_turn
                for seat in range(p.table.seats):
                    alone = extra.fill(stand_in, seat, None)
                    assert alone == extra.fill(p, seat, env.game.hands[seat]), (extra.piece.name, seat)
                    checked += 1
    marked = [e for o in _observations(MODULES[game].raw_env(**rules)._encoder) for e in o.extras]
    if any(e.of_table or e.of_turn for e in marked):
        assert checked > 0


def _card_play_bits(env) -> dict:
    """(seat, piece name) -> (the bits, the extra) of each ``played_out`` or ``changed_by`` piece of every seat now."""
    game_state = env.game
    p = game_state.public
    out = {}
    for observation in _observations(env._encoder):
        for extra in observation.extras:
            if extra.played_out or extra.changed_by is not None:
                for seat in range(p.table.seats):
                    args = (p, seat, game_state.hands[seat])
                    if extra.private:
                        args += (private_of(game_state, seat),)
                    out[seat, extra.piece.name] = (extra.fill(*args), extra)
    return out


@pytest.mark.parametrize(("game", "rules"), CASES, ids=IDS)
def test_a_played_out_or_changed_by_piece_changes_as_it_says(game, rules):
    """What ``ExtraPiece.played_out`` and ``changed_by`` promise the mirror, at every card of the card play but a hand's last.

    Four episodes, or as many more as it takes (up to 400) for 30 checks of a marked piece where
    the plain card play is rare (in due's packet form reaches it in about one hand of sixteen).
    """
    marked = [
        e
        for o in _observations(MODULES[game].raw_env(**rules)._encoder)
        for e in o.extras
        if e.played_out or e.changed_by is not None
    ]
    checked = 0
    last = None  # (public state, the pieces' bits) at the decision before
    wanted = lambda: marked and checked < 30  # noqa: E731 (reads ``checked`` as it stands)
    for env in _decisions(game, rules, episodes=4, more=396, wanted=wanted):
        p = env.game.public
        now = _card_play_bits(env)
        if last is not None:
            q, before = last
            # one card played in the card play since (the table, which holds the phase, the same record)
            if p.table is q.table and not q.table.phase and p.history[:-1] == q.history and p.history[-1] < 160:
                card = p.history[-1] % 40
                for key, (value, extra) in now.items():
                    if extra.played_out:
                        assert value == before[key][0] & ~(1 << card), key
                    elif not extra.changed_by(p.table) >> card & 1:
                        assert value == before[key][0], key
                    checked += 1
        last = (p, now) if now else None
    if marked:
        assert checked >= 30


@pytest.mark.parametrize(("game", "rules"), CASES, ids=IDS)
def test_the_kept_pieces_are_the_pieces_computed_again(game, rules):
    for env in _decisions(game, rules, episodes=3):
        game_state = env.game
        p = game_state.public
        encoder = env._encoder
        for seat in range(p.table.seats):
            args = (p, seat, game_state.hands[seat])
            if encoder.takes_private:
                args += (private_of(game_state, seat),)
            kept = encoder.bits(*args)
            spaces = [o.bits.__globals__ for o in _observations(encoder)]
            saved = [space["table_bits"] for space in spaces]
            try:
                for space in spaces:
                    space["table_bits"] = _NothingKept()
                again = encoder.bits(*args)
            finally:
                for space, table_bits in zip(spaces, saved, strict=True):
                    space["table_bits"] = table_bits
            assert kept == again, seat
