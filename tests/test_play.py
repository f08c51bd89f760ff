"""``tressette play`` in a real terminal (pexpect drives the command), the human player, game records and replay."""

import json
import random
import sys
from pathlib import Path

import pytest

from tests.games.family import MODULES
from tressette_env.agents import RandomPlayer
from tressette_env.agents.human import HumanPlayer, QuitGame
from tressette_env.agents.registry import make_player
from tressette_env.cli import main
from tressette_env.engine import card_code, legal_actions, new_game, view
from tressette_env.engine.actions import PASS
from tressette_env.envs.spec import game_spec
from tressette_env.records import Recorder, RecordError, read_records, replay, write_record

pexpect = pytest.importorskip("pexpect")
TRESSETTE = str(Path(sys.executable).with_name("tressette"))


def spawn(*args: str):
    child = pexpect.spawn(TRESSETTE, list(args), encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.delaybeforesend = None
    return child


@pytest.mark.parametrize("game", list(MODULES))
def test_a_whole_episode_is_played_by_keystrokes_and_its_record_replays(game, tmp_path):
    record = tmp_path / "games.jsonl"
    child = spawn(
        "play", "--game", game, "--seed", "4", "--opponents", "random", "--no-confirm", "--record", str(record)
    )
    typed = 0
    while child.expect([r"your action \(", "episode over: ([^\r\n]*)\r\n"]) == 0:
        child.sendline("1")
        typed += 1
    returns = child.match.group(1)
    child.expect(f"recorded in {record}")
    child.expect(r"(Enter|q) leaves")  # the last screen stays until the person leaves
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and typed >= 1 and returns.startswith("you ")
    (episode,) = read_records(record)
    assert episode["game"] == game and episode["seed"] == 4 and episode["players"][0] == "human"
    out = spawn("replay", str(record))
    out.expect(r"the result is the record's")
    out.expect(pexpect.EOF)
    out.close()
    assert out.exitstatus == 0


def test_typing_mistakes_hints_and_undo_in_the_terminal():
    child = spawn("play", "--seed", "1", "--opponents", "random")
    child.expect(r"your actions: play a card:\r\n +\w+ +1\) (\S+)")
    first = child.match.group(1)
    child.expect(r"your action \(number")
    child.sendline("99")
    child.expect("99 is not one of your actions: type 1 to")
    child.sendline("banana")
    child.expect("'banana' is not an action")
    child.sendline("?")
    child.expect("hint: heuristic would play")
    child.sendline("1")
    child.expect(f"{first}: Enter to confirm, u to take it back")
    child.sendline("u")  # taken back: asked again
    child.expect(r"your action \(number")
    child.sendline(first)
    child.expect(f"{first}: Enter to confirm")
    child.sendline("")
    child.expect(r"player \d plays|trick 1 to")
    child.sendline("q")
    child.expect("stopped: this deal is not recorded")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def typing(*lines):
    """A HumanPlayer reading ``lines`` and writing to a list."""
    said = []
    answers = iter(lines)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return HumanPlayer(read=read, write=said.append), said


def test_the_human_player_reads_numbers_and_names():
    state = new_game(seed=0)
    legal = legal_actions(state)
    me = view(state, state.public.turn)
    card = next(c for c in legal if c < 40)
    player, said = typing("0", "chiamo", card_code(card).upper(), "")
    assert player.act(me, legal, random.Random(0)) == card  # a code in any case plays the card without a signal
    assert any("0 is not one of your actions" in s for s in said)
    assert any("chiamo is not legal now" in s for s in said)
    from tressette_env.engine.cards import card_name

    player, _ = typing(f"{card_name(card)}", "")
    assert player.act(me, legal, random.Random(0)) == card
    player, _ = typing()
    with pytest.raises(QuitGame):
        player.act(me, legal, random.Random(0))


def test_the_human_player_bids_in_an_auction():
    rules = game_spec("calabresella").make_rules()
    state = new_game(rules, 0)
    player, _ = typing("passo", "")
    assert player.act(view(state, state.public.turn), legal_actions(state), random.Random(0)) == PASS
    assert make_player("human:confirm=false").confirm is False


def record_of(game, seed, rules=None):
    rules = rules or game_spec(game).make_rules()
    recorder = Recorder(game, rules, seed, ["random"] * rules.game.agents(rules))
    state = recorder.start()
    rng = random.Random(seed)
    while True:
        while state.public.status == 0:
            state = recorder.play(state, RandomPlayer().act(view(state, state.public.turn), legal_actions(state), rng))
        if state.public.status == 1:  # HAND_OVER: a match goes on
            state = recorder.next_hand(state)
            continue
        return recorder.finish(state), state


@pytest.mark.parametrize("game", list(MODULES))
def test_a_record_replays_to_the_same_result(game, tmp_path):
    record, state = record_of(game, 11)
    path = tmp_path / "r.jsonl"
    write_record(path, record)
    write_record(path, record_of(game, 12)[0])
    first, second = read_records(path)
    assert first == json.loads(json.dumps(record))
    assert replay(first).public.result == state.public.result and second["seed"] == 12


def test_a_match_record_replays_hand_by_hand():
    record, state = record_of("tressette", 3, game_spec("tressette").make_rules(episode="match", target_score=31))
    assert len(record["hands"]) >= 2
    assert replay(record).public.match_score == state.public.match_score


def test_damaged_records_are_named_and_never_run():
    record, _ = record_of("tressette", 5)
    bad_action = json.loads(json.dumps(record))
    bad_action["hands"][0]["actions"][3][1] = 160
    with pytest.raises(RecordError, match="hand 1, action 4: action 160 is not legal"):
        replay(bad_action)
    bad_seat = json.loads(json.dumps(record))
    bad_seat["hands"][0]["actions"][0][0] = (bad_seat["hands"][0]["actions"][0][0] + 1) % 4
    with pytest.raises(RecordError, match="hand 1, action 1: seat . acts, but seat . is on turn"):
        replay(bad_seat)
    other_result = json.loads(json.dumps(record))
    other_result["hands"][0]["result"]["hand_score"] = [11, 1]  # no hand scores 12 points
    with pytest.raises(RecordError, match="hand 1: the replay's result differs"):
        replay(other_result)
    other_seed = dict(record, seed=6)
    with pytest.raises(RecordError, match="the seed deals other cards"):
        replay(other_seed)
    cut = json.loads(json.dumps(record))
    cut["hands"][0]["actions"] = cut["hands"][0]["actions"][:5]
    del cut["hands"][0]["result"]
    with pytest.raises(RecordError, match="ends in the middle of a hand"):
        replay(cut)
    with pytest.raises(RecordError, match="unknown game 'poker'"):
        replay(dict(record, game="poker"))
    with pytest.raises(RecordError, match="the record's rules: .*bogus"):
        replay(dict(record, rules={"bogus": 1}))


def test_replay_of_a_damaged_file_is_one_line_and_exit_status_1(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"version": 1, "game": "tressette"\n')
    with pytest.raises(SystemExit) as stop:
        main(["replay", str(path)])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "line 1: not JSON" in err


def test_play_refuses_bad_options(capsys):
    for argv, message in (
        (["play", "--seat", "4"], "--seat 4: tressette has agents 0 to 3"),
        (["play", "--game", "calabresella", "--partner", "random"], "--partner is the four-seat game's"),
        (["play", "--opponents", "nobody"], "unknown player 'nobody'"),
        (["play", "--players", "5"], "--players: tressette has a fixed number of players"),  # as eval says it
        # A player that cannot play the game is refused before the deal, as eval refuses it (not at its first turn).
        (["play", "--game", "tressette_a_perdere", "--opponents", "search"], "tressette_a_perdere with 4 players"),
        (["play", "--game", "tressette_a_perdere", "--hint", "search"], "--hint search: the search player values"),
        (["play", "--game", "calabresella", "--opponents", "missing.npz"], "no model at missing.npz"),
        (["play", "--record", "tests"], "--record tests: a folder; give the name of a file"),  # before the deal
    ):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2 and message in capsys.readouterr().err
