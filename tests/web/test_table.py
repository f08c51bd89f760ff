"""The web table's ``Table``: whole hands of every game played through ``act``, bad requests refused, the messages."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers import without_model
from tressette_env import catalog
from tressette_env.engine import PLAYING, legal_actions
from tressette_env.engine.actions import PASS
from tressette_env.records import replay
from tressette_env.web.table import VERSION, Table, TableError, catalog_message

GAMES = catalog.names()


def agents_of(game: str, **switches) -> int:
    rules = catalog.entry(game).make_rules(**switches)
    return rules.game.agents(rules)


def play_out(table: Table, rng: random.Random, seen: list | None = None) -> None:
    """Play the hand to its end: bots by ``play_bot``, persons a random legal action by ``act``."""
    while table.on_turn() is not None:
        if table.bot_turn():
            table.play_bot()
            continue
        agent = table.on_turn()
        message = table.message_for(agent)
        assert message["your_turn"] and message["act"]["legal"]
        if seen is not None:
            seen.append(message)
        choice = rng.choice(message["act"]["legal"])
        table.act(agent, choice["id"] if rng.random() < 0.5 else choice["name"].upper())


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_hand_of_every_game_and_the_table_is_a_record(game):
    n = agents_of(game)
    table = Table(game, {}, ["person"] + ["random"] * (n - 1), seed=5)
    assert table.agents == n and table.persons == [0]
    seen: list = []
    play_out(table, random.Random(1), seen)
    assert seen, "the person decided something"
    first = seen[0]
    assert first["type"] == "view" and first["version"] == VERSION and first["you"] == 0
    assert first["names"][0] == "you" and "hands" not in first
    end = table.message_for(0)
    assert end["status"] == "match_over" and end["on_turn"] is None and not end["your_turn"]
    assert end["end"]["type"] == "end" and end["end"]["summary"][0] == "hand 1 over"
    assert end["end"]["review"]["kind"] in ("double_dummy", "heuristic", "none")
    assert end["log"] and all(set(entry) == {"seat", "text"} for entry in end["log"])
    record = table.record()
    assert record["game"] == game and record["players"][0] == "person"
    assert replay(record).public.result == table.state.public.result
    json.dumps(end)  # JSON all through


def test_bad_actions_are_refused_and_change_nothing():
    table = Table("tressette", {}, ["person", "random", "person", "random"], seed=2)
    while table.on_turn() != 0:
        if table.bot_turn():
            table.play_bot()
        else:
            table.act(table.on_turn(), table.legal(table.on_turn())[0]["id"])
    before, message = table.state, json.dumps(table.message_for(0))
    legal = {item["id"] for item in table.legal(0)}
    illegal = next(a for a in range(160) if a not in legal)
    for agent, action, words in [
        (0, illegal, "is not legal; legal:"),
        (0, "9z", "no legal action's name"),
        (0, True, "is not legal"),
        (0, [1], "is not legal"),
        (2, next(iter(legal)), "not your turn: player 0 (a person) is on turn"),
        (1, next(iter(legal)), "is a bot (random), not a person's seat"),
        (7, 0, "the agents are 0 to 3"),
    ]:
        with pytest.raises(TableError, match=words.replace("(", r"\(").replace(")", r"\)")):
            table.act(agent, action)
        assert table.state is before and json.dumps(table.message_for(0)) == message
    with pytest.raises(TableError, match="the hand is not over"):
        table.next_hand()
    for deal in (99, 0, -5):  # a deal that never was (it got no answer on the websocket)
        with pytest.raises(TableError, match=f'"deal" {deal}: no such deal; this table\'s deals are 1 to 1'):
            table.next_hand(deal)
    with pytest.raises(TableError, match="no bot is on turn"):
        table.play_bot()
    with pytest.raises(TableError, match="no episode"):
        table.record()
    with pytest.raises(TableError, match="no spectators"):
        table.message_for(None)
    assert table.state is before
    play_out(table, random.Random(0))
    with pytest.raises(TableError, match="the hand is over"):
        table.act(0, 0)


def test_the_hint_is_a_legal_action_of_the_seat_on_turn():
    for game in GAMES:
        n = agents_of(game)
        table = Table(game, {}, ["person"] * n, seed=9)
        rng = random.Random(3)
        for _ in range(12):
            agent = table.on_turn()
            if agent is None:
                break
            hint = table.hint(agent)
            assert {"id": hint["id"], "name": hint["name"]} in table.legal(agent)
            other = (agent + 1) % n
            with pytest.raises(TableError, match="not your turn"):
                table.hint(other)
            table.act(agent, rng.choice(table.legal(agent))["id"])


def test_rules_are_read_as_the_command_line_reads_them(monkeypatch):
    without_model(monkeypatch)  # a chiamare as a game with no model (a plugin's)
    table = Table("tressette", {"episode": "match", "target_score": 11, "signals": False}, ["person"] + ["random"] * 3)
    assert table.rules.target_score == 11 and table.rules.signals is False
    assert Table("calabresella", {"players": 4}, ["person"] * 4).agents == 4
    for game, rules, players, words in [
        ("scopa", {}, ["person"], "unknown game 'scopa'; the games are: tressette"),
        ("tressette", {"colour": 3}, ["person"] * 4, "unknown rule switch 'colour'"),
        ("tressette", {"target_score": 11}, ["person"] * 4, "has no effect"),
        ("tressette", {"signals": "often"}, ["person"] * 4, "signals is true or false"),
        ("tressette", {"episode": [1]}, ["person"] * 4, "not a switch's value"),
        ("tressette", {"episode": "a,b"}, ["person"] * 4, "not a switch's value"),
        ("tressette", [], ["person"] * 4, "an object of switches"),
        ("tressette", {}, ["person"] * 3, "tressette has 4 players: give 4 player specs"),
        ("tressette", {}, ["person", "wizard", "random", "random"], "player 1: unknown player 'wizard'"),
        ("tressette", {}, ["person", "human", "random", "random"], 'a person is "person" here'),
        ("tressette_a_chiamare", {}, ["person", "ppo", "random", "random", "random"], "no model is shipped"),
    ]:
        with pytest.raises(TableError, match=words.replace("(", r"\(")):
            Table(game, rules, players)


def test_next_hand_deals_the_match_on_and_then_a_new_episode():
    table = Table("tressette_in_due", {"episode": "match", "target_score": 11}, ["person", "heuristic"], seed=4)
    rng = random.Random(2)
    hands = 0
    while True:
        play_out(table, rng)
        hands += 1
        message = table.message_for(0)
        assert message["end"]["match_score"] == list(table.state.public.match_score)
        if message["status"] == "match_over":
            break
        assert message["status"] == "hand_over" and any("match (to 11)" in line for line in message["end"]["summary"])
        table.next_hand()
        assert table.state.public.hand_number == hands and table.message_for(0)["log"] == []
    assert hands > 1
    record = table.record()
    assert len(record["hands"]) == hands and replay(record).public.match_score == table.state.public.match_score
    table.next_hand()  # a new episode, the next seed
    assert table.seed == 5 and table.state.public.hand_number == 0 and table.state.public.status == PLAYING
    assert table.record() is record  # the finished one, until the new one is over


def test_col_morto_s_dummy_is_played_by_its_person_who_sees_its_own_hand_beside_it():
    table = Table("tressette_col_morto", {"players": 2}, ["person", "random"], seed=1)
    dummy_turns = 0
    rng = random.Random(5)
    while table.on_turn() is not None:
        if table.bot_turn():
            table.play_bot()
            continue
        message = table.message_for(0)
        own = table.state.public.table.seat_of[0]
        act = message["act"]
        if act["seat"] != own:  # the dummy's turn: its view, its legal actions, and the person's own hand
            dummy_turns += 1
            assert table.state.public.table.controllers[act["seat"]] == 0
            assert act["hand"] == sorted(_cards(table.state.hands[act["seat"]]))
            assert act["own"] == sorted(_cards(table.state.hands[own]))
            assert [item["id"] for item in act["legal"]] == legal_actions(table.state)
        else:
            assert "own" not in act
        table.act(0, rng.choice(act["legal"])["id"])
    assert dummy_turns >= 5


def _cards(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


@pytest.mark.parametrize(("game", "n"), [("calabresella", 3), ("tressette_a_chiamare", 5)])
def test_the_auction_and_the_call_are_played_by_the_persons(game, n):
    phases = set()
    bids = 0
    for seed in range(6):
        table = Table(game, {}, ["person"] * n, seed=seed)
        rng = random.Random(seed)
        while (agent := table.on_turn()) is not None:
            message = table.message_for(agent)
            act = message["act"]
            phases.add(act["phase"])
            names = [item["name"] for item in act["legal"]]
            if act["phase"] != "play" and "passo" in names and rng.random() < 0.3:
                choice = "passo"
            else:
                choice = rng.choice([item for item in act["legal"] if item["id"] != PASS] or act["legal"])["id"]
            if act["phase"] == "the auction":
                bids += 1
            table.act(agent, choice)
        summary = table.message_for(0)["end"]["summary"]
        assert summary[0] == "hand 1 over"
    assert {"the auction", "the call", "play"} <= phases, phases
    assert bids >= 6


def test_a_dealer_who_sits_out_sees_the_table_without_a_hand():
    rules = {"players": 4, "four_player": "dealer_sits_out"}
    table = Table("calabresella", rules, ["person"] * 4, seed=3)
    out = table.state.public.table.seat_of.index(-1)
    message = table.message_for(out)
    assert message["seat"] is None and message["act"]["seat"] is None and message["act"]["hand"] == []
    assert not message["your_turn"] and message["act"]["legal"] == []


def test_a_spectator_of_a_table_of_bots_sees_every_hand():
    table = Table("tressette_in_due", {}, ["heuristic", "random"], seed=0)
    message = table.message_for(None)
    assert message["you"] is None and not message["your_turn"]
    assert message["hands"] == {str(s): _cards(h) for s, h in enumerate(table.state.hands)}
    while table.on_turn() is not None:
        table.play_bot()
    end = table.message_for(None)
    assert end["status"] == "match_over" and end["last_trick"]["taker"] in (0, 1)
    with pytest.raises(TableError, match="not a person's seat"):
        table.hint(0)


def test_the_catalog_lists_every_game_with_its_switches():
    message = catalog_message(["mine.npz"])
    assert message["type"] == "catalog" and message["version"] == VERSION
    names = [g["name"] for g in message["games"]]
    # Every game registered when the message is made (a test module's own game too, registered at its import,
    # which may come after this module's GAMES was read), the package's six first.
    assert names == list(catalog.names())
    assert names[: len(catalog.PACKAGE_GAMES)] == list(catalog.PACKAGE_GAMES)
    assert message["players"] == ["random", "heuristic", "search", "ppo", "mine.npz"]
    tressette = message["games"][0]
    assert tressette["agents"] == 4 and tressette["model"] is True
    kinds = {s["name"]: s for s in tressette["switches"]}
    assert kinds["signals"]["kind"] == "bool" and kinds["episode"]["choices"] == ["hand", "match"]
    assert kinds["target_score"]["kind"] == "int" and "episode" in kinds["target_score"]["needs"]
    assert (kinds["target_score"]["least"], kinds["target_score"]["most"]) == (1, 10_000)  # the page's field bounds
    a_perdere = {s["name"]: s for s in message["games"][names.index("tressette_a_perdere")]["switches"]}
    assert (a_perdere["players"]["least"], a_perdere["players"]["most"]) == (3, 8)  # its own smaller largest value
    for game in message["games"]:
        for s in game["switches"]:  # every switch listed can be set from the page
            assert s["kind"] in ("bool", "int", "choice")
    json.dumps(message)
