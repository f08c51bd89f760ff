"""No leak through the web table: every message a person's connection receives holds only what its seat may know.

Two checks, on the messages of ``Table.message_for`` and on those the app sends over the websocket:

(a) Every card a message names (a card id under a card's key, a card's code or name in a text:
    the log, the summary), outside ``act.state``, lies in what the seat has seen: its hand, its
    private cards, the cards played, declared or lying face up, the cards the rules tell the
    table (``tests/protocol/test_no_leak.py``'s ``seen``) and the cards the public actions name
    (a called card). ``act.state`` is exactly the public record (``encode_public``); the legal
    actions are the seat's own on its turn and none otherwise; the review's heuristic plays are
    the agent's own; no message has a field this test does not know (a new field is read here
    first), and no person's message has ``hands``. Over many hands of every game.
(b) Stronger: the same public actions replayed on another deal that the seat cannot tell apart
    (``tests/protocol/test_no_leak.py``'s relabelled deals, played through a ``Table`` dealt with
    ``DealRandom``) give byte-identical messages (and hints), mid-hand and at the hand's end
    (the summary, the review), in the four-seat game, Calabresella and Tressette a chiamare.
"""

from __future__ import annotations

import contextlib
import json
import random
import re

import pytest

from tests.games.family import RULE_SETS
from tests.protocol.test_no_leak import (
    BID_WEIGHTS,
    TRIES,
    DealRandom,
    Hand,
    Position,
    Rejected,
    candidate,
    consistent,
    differs,
    folded,
    seen,
)
from tressette_env import catalog
from tressette_env.engine import CALL_OUT, PLAYING, legal_actions, view
from tressette_env.engine.actions import CALL, GIVE
from tressette_env.engine.cards import card_code, card_name
from tressette_env.protocol.state import encode_public
from tressette_env.web.table import Table

TOP_KEYS = {"type", "version", "table", "deal", "you", "seat", "status", "on_turn", "your_turn", "names", "seat_names"}
TOP_KEYS |= {"act", "log", "last_trick", "end"}
ACT_KEYS = {"type", "protocol", "game", "rules", "seat", "hand", "hand_names", "private", "phase", "turn", "dealer"}
ACT_KEYS |= {"leader", "hand_number", "trick", "tricks", "lead_signal", "declarations", "thirds", "match_score"}
ACT_KEYS |= {"face_up", "legal", "state", "own"}
END_KEYS = {"type", "protocol", "game", "rules", "seat", "agent", "hand_number", "tricks", "declarations", "thirds"}
END_KEYS |= {"points", "agent_points", "match_score", "match_over", "winner", "state", "summary", "review"}
CARD_KEYS = {"hand", "private", "own", "cards", "card"}
CODES = {card_code(c): c for c in range(40)}
NAMES = {card_name(c): c for c in range(40)}
CODE_RE = re.compile(r"(?<![\w/])(" + "|".join(CODES) + r")(?![\w/])")
NAME_RE = re.compile("|".join(sorted(NAMES, key=len, reverse=True)))


def _json(value):
    return json.loads(json.dumps(value))


def _walk(value, key: str, out: set[int]) -> None:
    """The cards ``value`` names (under ``key``): ids under a card's key, codes and names in texts."""
    if key in ("state", "legal", "review"):
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, "cards" if key == "face_up" else k, out)
    elif isinstance(value, list):
        for v in value:
            _walk(v, key, out)
    elif isinstance(value, str):
        out.update(CODES[m] for m in CODE_RE.findall(value))
        out.update(NAMES[m] for m in NAME_RE.findall(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        if key in CARD_KEYS:
            out.add(value)
        elif key == "actions" and value < CALL_OUT:
            out.add(value % 40)


def _public_cards(p) -> int:
    """The cards the public actions name (a card played, called, given back face up, taken from a shown monte)."""
    mask = 0
    for a in p.history:
        if a < CALL_OUT:
            mask |= 1 << (a % 40)
        elif CALL <= a < CALL + 40:
            mask |= 1 << (a - CALL)
        elif GIVE <= a < GIVE + 40:
            mask |= 1 << (a - GIVE)
    return mask


def check_message(message: dict, state, agent: int, position: Position) -> None:
    """Check (a) for one person's message at ``state`` (the module docstring)."""
    p = state.public
    assert set(message) <= TOP_KEYS, set(message) - TOP_KEYS
    assert "hands" not in message and message["you"] == agent
    act = message["act"]
    assert set(act) <= ACT_KEYS, set(act) - ACT_KEYS
    assert act["state"] == _json(encode_public(p))
    own = p.table.seat_of[agent]
    on_turn = p.status == PLAYING and p.table.controllers[p.turn] == agent
    seat = p.turn if on_turn else own
    if on_turn:
        assert act["seat"] == p.turn and [item["id"] for item in act["legal"]] == legal_actions(state)
    else:
        assert act["legal"] == []
    allowed = _public_cards(p)
    for s in {seat, own} - {-1}:
        allowed |= seen(position, view(state, s))
    named: set[int] = set()
    _walk(message, "", named)
    leaked = sorted(c for c in named if not allowed >> c & 1)
    assert not leaked, f"agent {agent} is told of cards it has not seen: {[card_code(c) for c in leaked]}"
    if "end" in message:
        end = message["end"]
        assert set(end) <= END_KEYS and end["state"] == _json(encode_public(p))
        for play in end["review"]["plays"]:
            if play.get("by") == "heuristic" or end["review"]["kind"] == "heuristic":
                assert play["agent"] == agent  # its own decisions only
            else:
                assert play["action"] % 40 in named | {c for c in range(40) if p.all_played >> c & 1}


def random_action(state, rng: random.Random) -> int:
    legal = [a for a in legal_actions(state) if a != CALL_OUT]
    return rng.choices(legal, [BID_WEIGHTS.get(a, 1) for a in legal])[0]


def play_hands(game: str, switches: dict, seed: int, hands: int):
    """Hands of random play at a table of persons: yields (table, position) before each action and at the end."""
    rules = catalog.entry(game).make_rules(**switches)
    n = rules.game.agents(rules)
    rng = random.Random(seed)
    for _ in range(hands):
        hand_seed = rng.randrange(10**9)
        dealing = DealRandom(hand_seed)
        table = Table(game, rules, ["person"] * n, seed=hand_seed, rng=dealing)
        hand = Hand(rules, None, hand_seed, tuple(dealing.decks), table.state)
        actions: list[tuple[int, bool]] = []
        while True:
            state = table.state
            yield table, Position(state, hand, tuple(actions))
            if state.public.status != PLAYING:
                break
            action = random_action(state, rng)
            table.act(table.on_turn(), action)
            shown = table.state.public.history[len(state.public.history) :] == (action,)
            actions.append((action, not shown))


HANDS = {"tressette": 2, "tressette_col_morto": 1}
"""Hands of each rule set of ``RULE_SETS`` (3 unless named: the double-dummy review of a two-sided hand takes
a second without numba)."""


@pytest.mark.parametrize("game", list(RULE_SETS))
def test_every_card_a_person_is_told_of_is_one_its_seat_has_seen(game):
    messages = 0
    for r, switches in enumerate(RULE_SETS[game]):
        for table, position in play_hands(game, switches, seed=r, hands=HANDS.get(game, 3)):
            state = position.state
            for agent in table.persons:
                if state.public.table.seat_of[agent] < 0:
                    continue
                check_message(table.message_for(agent), state, agent, position)
                messages += 1
    assert messages > 150


# ---------------------------------------------------------------------- (b) deals the seat cannot tell apart


def table_at(position: Position, relabel: dict) -> Table:
    """The position's hand at a ``Table``, dealt again with the unseen cards relabelled, its actions acted."""
    hand = position.hand
    n = hand.rules.game.agents(hand.rules)
    rng = DealRandom(hand.seed, hand.decks, relabel)
    table = Table(hand.rules.game.name, hand.rules, ["person"] * n, seed=hand.seed, rng=rng)
    for action, face_down in position.actions:
        if face_down:
            for base in (CALL, GIVE):
                if base <= action < base + 40:
                    action = base + relabel.get(action - base, action - base)
        table.act(table.on_turn(), action)
    return table


def said(table: Table, agent: int) -> str:
    """Everything ``agent`` is told now: its view, and the hint when it is on turn."""
    hint = table.hint(agent) if table.on_turn() == agent else None
    return json.dumps([table.message_for(agent), hint])


def another_relabel(position: Position, unseen: list[int], rng: random.Random) -> dict | None:
    """A relabelling of the unseen cards that the public record allows and that changes the deal (or None)."""
    for kind, tries in TRIES.items():
        for _ in range(tries):
            relabel = candidate(kind, unseen, rng)
            try:
                other = consistent(position, relabel)
            except Rejected:
                continue
            if differs(position.state, other):
                return relabel
    return None


@pytest.mark.parametrize(
    ("game", "switches", "hands"),
    [
        ("tressette", {}, 3),
        ("calabresella", {}, 6),
        ("calabresella", {"contracts": ("chiamo", "solo", "solissimo", "dividete", "scegliete"), "signals": "full"}, 6),
        ("tressette_a_chiamare", {}, 4),
    ],
)
def test_a_person_gets_the_same_messages_on_deals_it_cannot_tell_apart(game, switches, hands):
    rng = random.Random(7)
    compared = ends = own_changed = 0
    for table, position in play_hands(game, switches, seed=11, hands=hands):
        state = position.state
        if rng.random() > 0.35 and state.public.status == PLAYING:  # a sample of the positions, every hand's end
            continue
        for agent in table.persons:
            seat = state.public.table.seat_of[agent]
            if seat < 0:
                continue
            v = view(state, seat)
            unseen = sorted({c for deck in position.hand.decks for c in deck if not seen(position, v) >> c & 1})
            places = {next((s for s, h in enumerate(state.hands) if h >> c & 1), -1 - c) for c in unseen}
            if len(places) < 2:
                continue
            relabel = another_relabel(position, unseen, rng)
            if relabel is None:
                continue
            mine = said(table_at(position, {}), agent)
            assert mine == said(table, agent)
            other = table_at(position, relabel)
            assert other.state == consistent(position, relabel)
            assert said(other, agent) == mine, f"{game}: agent {agent} tells two deals apart at {state.public}"
            compared += 1
            ends += state.public.status != PLAYING
            mask = v.hand & ~folded(state.public.table.exposed)
            held = [c for c in range(40) if mask >> c & 1]
            if held and unseen:  # the check can fail: one of its own cards exchanged for an unseen one
                a, b = rng.choice(held), rng.choice(unseen)
                try:
                    consistent(position, {a: b, b: a})
                except Rejected:
                    continue
                assert said(table_at(position, {a: b, b: a}), agent) != mine
                own_changed += 1
    print(f"\n{game} {switches}: {compared} messages compared on another deal ({ends} at a hand's end), {own_changed}")
    assert compared >= 40 and own_changed >= 10
    if game != "tressette":
        assert ends >= 3


# ---------------------------------------------------------------------- (a) through the app


@pytest.mark.parametrize(("game", "hands"), [("tressette", 2), ("calabresella", 6), ("tressette_col_morto", 1)])
def test_every_message_a_person_s_connection_receives_over_the_websocket(game, hands):
    """Persons in every seat (one joins by the link of each): after each action every connection gets a view,
    checked against its seat's information set while the table waits for a person."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        from starlette.testclient import TestClient

    from tressette_env.web.app import make_app

    rules = catalog.entry(game).make_rules()
    n = rules.game.agents(rules)
    rng = random.Random(3)
    checked = 0
    with TestClient(make_app(secret_seeds=random.Random(4))) as client, contextlib.ExitStack() as stack:
        conns = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(n)]
        conns[0].send_json({"type": "create", "game": game, "players": ["person"] * n, "pace_ms": 0})
        joined = conns[0].receive_json()
        views = {0: conns[0].receive_json()}
        for agent in range(1, n):
            conns[agent].send_json({"type": "join", "table": joined["table"], "token": joined["links"][str(agent)]
                                    .split("token=")[1]})  # fmt: skip
            assert conns[agent].receive_json()["you"] == agent
            views[agent] = conns[agent].receive_json()
        table = client.app.state.server.rooms[joined["table"]].table
        for _ in range(hands):
            while True:
                state = table.state
                start = table._steps[0][0] if table._steps else state
                played = tuple((action, False) for _, action in table._steps)  # what the seats saw come to pass
                position = Position(state, Hand(rules, None, 0, (), start), played)
                for agent, message in views.items():
                    check_message(message, state, agent, position)
                    checked += 1
                if state.public.status != PLAYING:
                    for agent in range(n):  # the review follows the hand's last view: checked in its place
                        review = conns[agent].receive_json()
                        assert review["type"] == "review" and views[agent]["end"]["review"]["kind"] == "pending"
                        assert set(review) == {"type", "version", "table", "hand_number", "review"}
                        views[agent]["end"]["review"] = review["review"]
                        check_message(views[agent], state, agent, position)
                    break
                agent = table.on_turn()
                assert views[agent]["your_turn"]
                conns[agent].send_json({"type": "act", "action": random_action(state, rng)})
                views = {a: conns[a].receive_json() for a in range(n)}
            conns[0].send_json({"type": "next"})
            views = {a: conns[a].receive_json() for a in range(n)}
    assert checked > 30 * n * hands
