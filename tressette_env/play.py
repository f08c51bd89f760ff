"""``tressette play``: a person plays an episode of any game against the package's players in the terminal.

The person is one agent (``seat``, default 0); the others are player specs (``heuristic`` by
default; the four-seat game's partner is ``partner``). Each decision of the person is a
``HumanPlayer`` prompt (numbers or names, ``?`` for a hint, confirm with Enter or take back
with ``u``, ``q`` to stop); the others' actions are printed as they are played, each trick's
taker and each hand's result too. ``record`` appends the episode to a JSON-lines file
(``tressette_env.records``), which ``tressette replay`` plays again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .agents.base import Player
from .agents.human import HumanPlayer, QuitGame
from .engine.actions import action_to_string
from .engine.game import legal_actions, view
from .engine.state import HAND_OVER, PLAYING
from .records import Recorder, write_record


def play_episode(
    game: str,
    rules: Any,
    human: HumanPlayer,
    others: Sequence[Player],
    specs: Sequence[str],
    seat: int = 0,
    seed: int = 0,
    record: str | None = None,
    write: Callable[[str], None] = print,
) -> dict[str, Any] | None:
    """Play one episode with ``human`` as agent ``seat`` and ``others`` in the other agents (in order).

    Returns the episode's record, or None when the person stopped (``q``).
    """
    g = rules.game
    agents = g.agents(rules)
    players: list[Player] = list(others)
    players.insert(seat, human)
    names = [f"player_{i}" for i in range(agents)]
    names[seat] = "you"
    recorder = Recorder(game, rules, seed, [*specs[:seat], "human", *specs[seat:]])
    rng = random.Random(f"{seed}-players")
    state = recorder.start()
    seat_names = g.seat_names(state.public.table, names)
    write(f"{game}: you are {names[seat]} (agent {seat}); the others: "
          + ", ".join(f"player_{i} {recorder.record['players'][i]}" for i in range(agents) if i != seat))  # fmt: skip
    human.names = seat_names
    try:
        while True:
            p = state.public
            if p.status == PLAYING:
                turn = p.turn
                agent = p.table.controllers[turn]
                action = players[agent].act(view(state, turn), legal_actions(state), rng)
                if agent != seat:
                    write(f"{seat_names[turn]} plays {action_to_string(action)}")
                state = recorder.play(state, action)
                q = state.public
                if q.tricks_done > p.tricks_done and q.status == PLAYING:
                    write(f"trick {q.tricks_done} to {seat_names[q.leader]}")  # its taker leads the next
                continue
            info = g.hand_info(p)
            write(f"hand over: {info}")
            if p.status == HAND_OVER:
                state = recorder.next_hand(state)
                seat_names = g.seat_names(state.public.table, names)
                human.names = seat_names
                continue
            break
    except QuitGame:
        write("stopped: nothing recorded")
        return None
    result = recorder.finish(state)
    write("episode over: " + ", ".join(f"{names[i]} {r:+g}" for i, r in enumerate(result["returns"])))
    if record:
        write_record(record, result)
        write(f"recorded in {record}")
    return result
