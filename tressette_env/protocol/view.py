"""What a seat receives (``act_message``) and how its answer is read (``read_answer``).

An ``act`` message is one JSON object: the protocol, the game and its switches, the seat, a
readable view (its hand, the trick, the tricks so far, the thirds, the scores, the cards face
up), the legal actions each with its ``id`` and ``name`` (the play screen's words: ``Ad``,
``3c striscio``, ``chiama 3d``, ``passo``), and ``state``, the exact public record
(``protocol.state``) for a harness that rebuilds the view. Every field is a function of the
seat's ``SeatView`` (its hand, what it alone knows, the public record) and the legal actions,
which are themselves a function of that view: the message says nothing the seat may not know.

| field | what it is |
| --- | --- |
| ``type``, ``protocol`` | ``"act"``, ``"tressette-table/1"`` |
| ``game``, ``rules`` | the game's name and its rule switches |
| ``seat`` | the seat to act for (the seat's own, or a dummy's it plays) |
| ``hand``, ``private`` | the cards of that seat's hand; the face-down cards it alone knows (ids 0..39) |
| ``hand_names`` | the hand's cards as the docs name them (``asso di denari``) |
| ``phase``, ``turn``, ``dealer``, ``leader``, ``hand_number`` | where the hand stands |
| ``trick`` | the cards on the table, in play order: ``{"seat", "card", "name"}`` |
| ``tricks`` | the finished tricks of the hand: ``{"leader", "cards", "actions", "signal"}`` (the lead's signal or ``""``) |
| ``lead_signal`` | the signal of the current trick's lead, or ``""`` |
| ``declarations`` | per seat, its declarations (accusi): ``{"kind", "cards", "points"}`` |
| ``thirds``, ``match_score`` | the thirds each side has taken; each competitor's match score |
| ``face_up`` | per seat, the cards lying face up in its hand (a dummy's) |
| ``legal`` | ``[{"id": 0, "name": "Ad"}, ...]`` |
| ``state`` | the public record, exactly (``protocol.state.encode_public``) |

An answer is one line: ``{"action": <id>}`` or ``{"action": "<name>"}`` (a legal action's name,
any case).

When a hand ends, each agent a player plays gets an ``end`` message (``end_message``), which
needs no answer: the finished hand as that seat sees it, and how it scored.

| field | what it is |
| --- | --- |
| ``type``, ``protocol``, ``game``, ``rules``, ``seat`` | ``"end"``, and as in ``act`` |
| ``agent`` | the player that plays ``seat`` (0 first; a dummy's seat names its player's own) |
| ``hand_number``, ``tricks``, ``declarations``, ``thirds`` | the finished hand, as in ``act`` |
| ``points`` | the hand's score by side as the game keeps it (``HandScore.points``: cards, last trick, declarations, bonus; the four-seat game: team 0 is seats 0 and 2) |
| ``agent_points`` | each agent's points for the hand, its side's (a perdere: its charge; ``null``: not dealt in) |
| ``match_score`` | each competitor's score after this hand |
| ``match_over``, ``winner`` | whether the episode is over; the competitor that won the match, or ``null`` |
| ``state`` | the public record, exactly |

Example:
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=0)
    >>> message = act_message(view(state, state.public.turn), legal_actions(state))
    >>> message["type"], len(message["hand"]), message["legal"][0]
    ('act', 10, {'id': 0, 'name': 'Ad'})
    >>> read_answer('{"action": "ad"}', message["legal"])
    0
"""

from __future__ import annotations

import json
from typing import Any

from ..engine.actions import CALL_OUT, SIGNAL_NAMES
from ..engine.cards import card_name, cards_of
from ..engine.state import HAND_OVER, SeatView
from ..messages import cut, not_json, shown
from . import PROTOCOL
from .state import encode_public

MAX_ANSWER = 4096
"""The longest answer line read, in characters."""


class AnswerError(ValueError):
    """An answer that is not one of the legal actions."""


def _signal(actions: Any) -> str:
    """The signal of a trick's lead (``busso``, ``striscio``, ``volo``), or ``""``."""
    return SIGNAL_NAMES[actions[0] // 40] if actions and actions[0] < CALL_OUT else ""


def _tricks(p: Any, least: int) -> list[dict]:
    """The hand's tricks of at least ``least`` cards: ``{"leader", "cards", "actions", "signal"}``."""
    return [
        {"leader": leader, "cards": list(cards), "actions": list(actions), "signal": _signal(actions)}
        for leader, cards, actions in p.tricks()
        if len(cards) >= least
    ]


def _declarations(p: Any) -> list[list[dict]]:
    """Per seat, its declarations: ``{"kind", "cards", "points"}``."""
    return [
        [{"kind": a.kind, "cards": cards_of(a.cards), "points": a.points} for a in by_seat]
        for by_seat in p.accusi.by_seat
    ]


def _switches(rules: Any) -> dict:
    return encode_public(rules)["switches"]


def act_message(view: SeatView, legal: list[int]) -> dict:
    """The ``act`` message for ``view`` with these legal actions (the module docstring's table)."""
    p = view.public
    game = p.rules.game
    n = p.table.seats
    face_up = {str(s): cards_of(p.exposed_by(s)) for s in range(n) if p.exposed_by(s)}
    return {
        "type": "act",
        "protocol": PROTOCOL,
        "game": game.name,
        "rules": _switches(p.rules),
        "seat": view.seat,
        "hand": cards_of(view.hand),
        "hand_names": [card_name(c) for c in cards_of(view.hand)],
        "private": cards_of(view.private),
        "phase": game.phase_name(p) if p.phase else "play",
        "turn": p.turn,
        "dealer": p.dealer,
        "leader": p.leader,
        "hand_number": p.hand_number,
        "trick": [
            {"seat": (p.leader + i) % n, "card": card, "name": card_name(card)} for i, card in enumerate(p.trick)
        ],
        "tricks": _tricks(p, least=n),
        "lead_signal": _signal(p.plays[len(p.plays) - len(p.trick) :]) if p.trick else "",
        "declarations": _declarations(p),
        "thirds": list(p.thirds),
        "match_score": list(p.match_score),
        "face_up": face_up,
        "legal": [{"id": a, "name": game.action_label(p, a)} for a in legal],
        "state": encode_public(p),
    }


def end_message(view: SeatView) -> dict:
    """The ``end`` message for ``view``, a seat's view of a finished hand (the module docstring's second table)."""
    p = view.public
    game = p.rules.game
    table = p.table
    return {
        "type": "end",
        "protocol": PROTOCOL,
        "game": game.name,
        "rules": _switches(p.rules),
        "seat": view.seat,
        "agent": table.controllers[view.seat],
        "hand_number": p.hand_number,
        "tricks": _tricks(p, least=1),
        "declarations": _declarations(p),
        "thirds": list(p.thirds),
        "points": list(p.result.points) if p.result is not None else [],
        "agent_points": list(game.hand_points(p)) if p.result is not None else [],
        "match_score": list(p.match_score),
        "match_over": p.status != HAND_OVER,
        "winner": p.winner,
        "state": encode_public(p),
    }


def read_answer(line: str, legal: list[dict]) -> int:
    """The action id an answer line names: ``{"action": id}`` or ``{"action": "name"}``.

    Raises:
        AnswerError: not such a line, or not a legal action (the message names what was read and what is allowed).
    """
    if len(line) > MAX_ANSWER:
        raise AnswerError(f"an answer of {len(line)} characters: at most {MAX_ANSWER}")
    try:
        answer = json.loads(line)
    except (ValueError, RecursionError) as error:  # RecursionError: lists or objects nested past the parser's depth
        raise AnswerError(f'{not_json(error)}: {cut(line.strip())}; answer {{"action": <id>}}') from None
    if not isinstance(answer, dict) or "action" not in answer:
        raise AnswerError(f'{shown(answer)}: answer an object {{"action": <id or name>}}')
    action = answer["action"]
    ids = [item["id"] for item in legal]
    if isinstance(action, str):
        names = {item["name"].lower(): item["id"] for item in legal}
        found = names.get(action.strip().lower())
        if found is None:
            raise AnswerError(f"action {shown(action)} is no legal action's name; legal: {_listed(legal)}")
        return found
    if isinstance(action, bool) or not isinstance(action, int) or action not in ids:
        raise AnswerError(f"action {shown(action)} is not legal; legal: {_listed(legal)}")
    return action


def _listed(legal: list[dict]) -> str:
    return cut(", ".join(f"{item['id']} ({item['name']})" for item in legal), 200)
