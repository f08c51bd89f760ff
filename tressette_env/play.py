"""``tressette play``: a person plays an episode of any game against the package's players in the terminal.

The person is one agent (``seat``, default 0); the others are player specs (``heuristic`` by
default; the four-seat game's partner is ``partner``). Each decision of the person is a
``HumanPlayer`` prompt (numbers or names, ``?`` for a hint, ``h`` for help, confirm with Enter
or take back with ``u``, ``q`` to stop). The screens give every seat one name: ``you`` for
the person, ``player N`` for agent N (the agents counted from 0, as ``--seat`` counts them),
``dummy of player N`` for a dummy. The others' actions are printed as they are played (a
face-down discard as a discard, its card untold), each trick with its cards and its taker.
When a hand ends the screen shows its last trick and its score in words: each side's points
(cards and accusi), the stakes where the game has them, the match score; in a match, Enter
deals the next hand. When the episode ends the program waits for Enter before it leaves
(``n`` deals a new hand with the next seed; after a hand that every player passed, Enter
deals again). ``record`` appends each episode to a JSON-lines file (``tressette_env.records``),
which ``tressette replay`` plays again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .agents.base import Player, hand_over
from .agents.human import (
    LEGEND,
    HumanPlayer,
    QuitGame,
    action_words,
    points_words,
    side_label,
    trick_plays,
    wrap_items,
)
from .engine.game import legal_actions, view
from .engine.render import count_text
from .engine.state import HAND_OVER, PLAYING, PublicState
from .records import Recorder, write_record


def agent_names(agents: int, seat: int) -> list[str]:
    """Each agent's name on the play screens: ``you`` for the person, ``player N`` for the others."""
    return ["you" if a == seat else f"player {a}" for a in range(agents)]


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
    """Play an episode with ``human`` as agent ``seat`` and ``others`` in the other agents (in order).

    After it the person may deal again (the next seed), as often as he likes. Returns the
    last finished episode's record, or None when the person stopped (``q``) in the middle of one.
    """
    g = rules.game
    agents = g.agents(rules)
    names = agent_names(agents, seat)
    lineup = [*specs[:seat], "human", *specs[seat:]]
    seated = [f"{names[a]}: {lineup[a]}" for a in range(agents) if a != seat]
    for line in wrap_items(f'{game}: you are player {seat} ("you" on the screens); ', seated, 2, sep=", "):
        write(line)
    write(LEGEND)
    confirm = "; Enter confirms each action (--no-confirm: at once)" if human.confirm else ""
    write(f"h help, ? hint, q quit{confirm}")
    while True:
        try:
            result, final = _play_one(game, rules, human, others, lineup, seat, seed, names, write)
        except QuitGame:
            write("stopped: this deal is not recorded")
            return None
        if record:
            write_record(record, result)
            write(f"recorded in {record}")
        void = _void(final)
        seed += 1
        if void:
            question = f"everyone passed: Enter deals again (seed {seed}), q leaves: "
            answers, hint = {"": True, "n": True}, "Enter deals again, q leaves"
        else:
            question = f"Enter leaves, n deals a new hand (seed {seed}): "
            answers, hint = {"": False, "n": True}, "Enter leaves, n deals a new hand"
        while True:  # an answer it does not know is asked again, not taken as leaving
            answer = human.ask(question)
            if answer is None or answer in answers:  # (None: q, or the end of the input)
                break
            write(f"{answer!r} is not an answer here: {hint}")
        again = answer is not None and answers[answer]
        if not again:
            return result
        write(f"\nseed {seed} (--seed {seed} plays this deal again)")


def _play_one(
    game: str,
    rules: Any,
    human: HumanPlayer,
    others: Sequence[Player],
    lineup: Sequence[str],
    seat: int,
    seed: int,
    names: list[str],
    write: Callable[[str], None],
) -> tuple[dict[str, Any], PublicState]:
    """One episode: its record and its last public state. Raises ``QuitGame`` when the person stops."""
    g = rules.game
    players: list[Player] = list(others)
    players.insert(seat, human)
    recorder = Recorder(game, rules, seed, list(lineup))
    rng = random.Random(f"{seed}-players")
    state = recorder.start()
    seat_names = g.seat_names(state.public.table, names)
    human.names = seat_names
    while True:
        p = state.public
        if p.status == PLAYING:
            turn = p.turn
            agent = p.table.controllers[turn]
            if agent == seat:  # the person's own hand stays in sight while he plays a dummy
                own = p.table.seat_of[seat]
                human.own = (own, state.hands[own])
            action = players[agent].act(view(state, turn), legal_actions(state), rng)
            state = recorder.play(state, action)
            q = state.public
            if agent != seat:
                hidden = len(q.history) <= len(p.history)  # a face-down action stays out of the public history
                write(f"{seat_names[turn]} {action_words(p, action, hidden)}")
            if q.tricks_done > p.tricks_done:
                leader, _, actions = q.tricks()[q.tricks_done - 1]
                last = q.tricks_done == q.table.tricks
                taker = _taker(q, leader, actions)
                words = f"trick {q.tricks_done}" + (", the last," if last else "")
                plays = trick_plays(q, leader, actions, seat_names)
                for line in wrap_items(f"{words} to {seat_names[taker]}: ", plays, 2, sep=" · "):
                    write(line)
            continue
        hand_over(players, state)  # a bot hears the protocol's end message
        for line in hand_over_lines(p, seat_names, names):
            write(line)
        if p.status == HAND_OVER:
            if human.ask(f"Enter deals hand {p.hand_number + 2}, q stops: ") is None:
                raise QuitGame("stopped between hands")
            state = recorder.next_hand(state)
            seat_names = g.seat_names(state.public.table, names)
            human.names = seat_names
            continue
        break
    result = recorder.finish(state)
    returns = [f"{names[i]} {r:+g}" for i, r in enumerate(result["returns"])]
    for line in wrap_items("episode over: ", returns, 2, sep=", "):
        write(line)
    return result, state.public


def _taker(p: PublicState, leader: int, actions: Sequence[int]) -> int:
    from .engine.tricks import trick_winner

    return trick_winner(leader, tuple(a % 40 for a in actions), p.table.seats)


def _void(p: PublicState) -> bool:
    """Whether the hand was void: every player passed (Calabresella, a chiamare), and nobody renounced.

    (A renuncio before any contract, or a chiamare's called card, also leaves no sides, and the offender pays.)
    """
    return not p.rules.game.contract_played(p) and p.result.renuncio is None


def hand_over_lines(p: PublicState, seat_names: Sequence[str], names: Sequence[str]) -> list[str]:
    """A finished hand in words: its end, each side's points (cards, accusi), the stakes, the match.

    ``seat_names`` name the seats, ``names`` the agents (``you``, ``player 1``...).
    """
    g = p.rules.game
    r = p.result
    info = g.hand_info(p)
    lines = [f"\nhand {p.hand_number + 1} over"]
    if r.renuncio is not None:
        lines.append(f"renuncio by {seat_names[r.renuncio]}: {g.renuncio_words(p)}")
    if r.called_out is not None:
        lines.append(f"{seat_names[r.called_out]} called out (chiamarsi fuori)")
    contract = info.get("contract")
    void = _void(p)
    if void:
        lines.append("everyone passed: the hand is void, nobody pays")
    elif p.rules.game.contract_played(p):  # (else a renuncio before the sides were set: the stakes below)
        if contract is not None:
            declarer = info.get("soloist", info.get("declarer"))
            outcome = "won" if info["stakes"][declarer] > 0 else "lost"
            lines.append(f"contract: {contract} by {names[declarer]}, {outcome}")
        lines += _side_lines(p, seat_names)
        if r.cappotto is not None:
            lines.append(f"cappotto by {_result_labels(p, seat_names)[r.cappotto]}")
    if "stakes" in info and not void:
        stakes = info["stakes"]
        lines += wrap_items("stakes: ", [f"{names[a]} {s:+d}" for a, s in enumerate(stakes)], 2, sep=" · ")
    if p.rules.episode == "match":
        lines += _match_lines(p, names)
        if p.winner is not None:
            lines.append(f"the match goes to {_competitor_labels(p, names)[p.winner]}")
    return lines


def _result_labels(p: PublicState, seat_names: Sequence[str]) -> list[str]:
    """The names of the sides ``HandScore`` counts (a chiamare: the declarer's side, then the others)."""
    groups = p.rules.game.result_groups(p)
    if groups is not None:
        return [f"{role} ({', '.join(seat_names[s] for s in seats)})" for role, seats in groups]
    return [side_label(p, s, seat_names) for s in range(len(p.result.points))]


def _side_lines(p: PublicState, seat_names: Sequence[str]) -> list[str]:
    g = p.rules.game
    r = p.result
    charged = g.points_sign(p.rules) < 0
    lines = []
    for label, points, thirds, accusi in zip(
        _result_labels(p, seat_names), r.points, r.card_thirds, r.accusi, strict=True
    ):
        detail = f"cards {points_words(thirds)}" + (f", accusi {accusi}" if accusi else "")
        amount = f"charged {points}" if charged else count_text(points, "point")
        lines.append(f"{label}: {amount} ({detail})")
    return lines


def _competitor_labels(p: PublicState, names: Sequence[str]) -> list[str]:
    """Each match score's owner: an agent's name, or ``team 0 (you, player 2)`` (col morto's ``side 0 (player 1)``)."""
    g = p.rules.game
    agents = len(names)
    count = len(p.match_score)
    if count == agents:
        return list(names)
    members: list[list[str]] = [[] for _ in range(count)]
    for a in range(agents):
        members[g.competitor_of(p.table, a)].append(names[a])
    word = g.side_word if g.side_word in ("team", "side") else "team"  # the hand's lines' word for a side
    return [f"{word} {c} ({', '.join(m)})" for c, m in enumerate(members)]


def _match_lines(p: PublicState, names: Sequence[str]) -> list[str]:
    rules = p.rules
    labels = _competitor_labels(p, names)
    score = [f"{label} {s}" for label, s in zip(labels, p.match_score, strict=True)]
    end = getattr(rules, "match_end", "target")
    if end == "rounds":
        how = f"after hand {p.hand_number + 1} of {rules.rounds * len(names)}"
    elif end == "hands":
        how = f"after hand {p.hand_number + 1} of {rules.hands}"
    else:
        how = f"to {rules.target_score}"
    return wrap_items(f"match ({how}): ", score, 2, sep=" · ")
