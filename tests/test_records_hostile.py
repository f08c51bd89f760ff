"""Damaged and hostile record files: ``RecordError`` from the records module, one line and status 1 from the CLI."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.cli import main
from tressette_env.engine import legal_actions
from tressette_env.engine.state import HAND_OVER, PLAYING
from tressette_env.envs.spec import game_spec
from tressette_env.records import MAX_DEPTH, MAX_LINE_BYTES, Recorder, RecordError, read_records, replay


def record_of(game, seed, **switches):
    """A record of an episode of ``game`` played with random legal actions (a match's every hand)."""
    rules = game_spec(game).make_rules(**switches)
    recorder = Recorder(game, rules, seed, ["random"] * rules.game.agents(rules))
    state = recorder.start()
    rng = random.Random(seed)
    while True:
        while state.public.status == PLAYING:
            state = recorder.play(state, rng.choice(legal_actions(state)))
        if state.public.status != HAND_OVER:
            return json.loads(json.dumps(recorder.finish(state)))
        state = recorder.next_hand(state)


def line_of(record) -> str:
    return json.dumps(record, separators=(",", ":"))


def replay_error(path, capsys, *flags) -> str:
    """The one line ``tressette replay FILE`` writes for a damaged file (status 1, no traceback)."""
    with pytest.raises(SystemExit) as stop:
        main(["replay", str(path), *flags])
    assert stop.value.code == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.err.endswith("\n")
    assert captured.err.count("\n") == 1
    (line,) = captured.err.splitlines()
    assert line.startswith(f"tressette replay: error: {path}, line ")
    return line


@pytest.mark.parametrize("game", ["tressette", "calabresella"])
def test_a_hand_cut_short_that_keeps_its_result_is_a_record_error(game, tmp_path, capsys):
    record = record_of(game, 5)
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:5]
    assert "result" in record["hands"][0]
    message = "hand 1: the record gives the hand's result, but its 5 action(s) end before the hand is over"
    with pytest.raises(RecordError) as error:
        replay(record)
    assert str(error.value).startswith(message)
    path = tmp_path / "cut.jsonl"
    path.write_text(line_of(record_of(game, 6)) + "\n\n" + line_of(record) + "\n")
    line = replay_error(path, capsys, "--episode", "2")
    assert line == f"tressette replay: error: {path}, line 3: {message} (a record cut short?)"


def test_a_later_hand_of_a_match_cut_short_is_named():
    record = record_of("tressette", 3, episode="match", target_score=31)
    assert len(record["hands"]) >= 2
    last = len(record["hands"]) - 1
    record["hands"][last]["actions"] = record["hands"][last]["actions"][:1]
    # Hands are counted from 1 in the errors, as ``tressette replay --hand K`` counts them.
    with pytest.raises(RecordError, match=f"^hand {last + 1}: the record gives the hand's result, but its 1 action"):
        replay(record)


def test_a_utf16_file_is_named_as_not_utf8(tmp_path, capsys):
    path = tmp_path / "utf16.jsonl"
    path.write_bytes((line_of(record_of("tressette", 1)) + "\n").encode("utf-16"))
    with pytest.raises(RecordError, match=r"line 1: not UTF-8 text: byte 0xff at byte 1; .*looks like UTF-16"):
        list(read_records(path))
    assert "line 1: not UTF-8 text: byte 0xff at byte 1" in replay_error(path, capsys)


def test_bytes_that_are_not_utf8_are_named_with_their_line(tmp_path, capsys):
    good = line_of(record_of("calabresella", 1)).encode()
    bad = good.replace(b'"random"', b'"rand\xe9om"', 1)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(good + b"\n" + bad + b"\n")
    column = bad.index(b"\xe9") + 1
    with pytest.raises(RecordError, match=f"line 2: not UTF-8 text: byte 0xe9 at byte {column}; records are"):
        list(read_records(path))
    assert f"line 2: not UTF-8 text: byte 0xe9 at byte {column}" in replay_error(path, capsys, "--episode", "2")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 200_000 + "]" * 200_000,
        "[" * 200_000,  # never closed
        '{"version":1,"game":"tressette","x":' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
    ],
)
def test_a_line_nested_too_deep_is_refused_before_it_is_parsed(text, tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    path.write_text(text + "\n")
    with pytest.raises(RecordError, match=f"line 1: lists and objects nested over {MAX_DEPTH} deep"):
        list(read_records(path))
    assert f"line 1: lists and objects nested over {MAX_DEPTH} deep" in replay_error(path, capsys)


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path):
    record = record_of("tressette", 2)
    record["players"][0] = '[{"\\' + "[" * 1000 + '"]'  # a player's name: a string, escapes and all
    path = tmp_path / "names.jsonl"
    path.write_text(line_of(record) + "\n")
    assert list(read_records(path)) == [record]
    replay(record)


def test_a_line_longer_than_the_bound_is_refused_unread(tmp_path, capsys):
    record = line_of(record_of("tressette", 4)).encode()
    fits = record + b" " * (MAX_LINE_BYTES - len(record))  # exactly MAX_LINE_BYTES: read as usual
    path = tmp_path / "long.jsonl"
    path.write_bytes(fits + b"\n" + fits + b" \n")
    records = read_records(path)
    assert next(records) == json.loads(record)
    with pytest.raises(RecordError, match=f"line 2: longer than {MAX_LINE_BYTES} bytes, the most a record's line"):
        next(records)
    assert f"line 2: longer than {MAX_LINE_BYTES} bytes" in replay_error(path, capsys, "--episode", "2")


def test_an_integer_too_long_to_read_is_not_json(tmp_path, capsys):
    path = tmp_path / "digits.jsonl"
    path.write_text('{"version":1,"seed":' + "7" * 5000 + "}\n")
    with pytest.raises(RecordError, match="line 1: not JSON"):
        list(read_records(path))
    assert "line 1: not JSON" in replay_error(path, capsys)


def test_a_damaged_value_is_shown_cut_short():
    record = record_of("tressette", 1)
    record["hands"][0]["actions"][0] = ["x" * 10_000]
    with pytest.raises(RecordError) as error:
        replay(record)
    assert len(str(error.value)) < 200 and str(error.value).endswith("...")


def test_a_truncated_record_that_gives_returns_is_a_record_error(tmp_path, capsys):
    """A record cut in the middle of a hand (``"truncated": true``) has no returns: one given was scored on a hand
    with no result (an AttributeError's traceback from ``replay``, and from the web table's record message)."""
    record = record_of("tressette", 1)
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:5]
    del record["hands"][0]["result"]
    record["truncated"] = True
    with pytest.raises(RecordError, match="the record gives returns, but it is truncated"):
        replay(record)
    path = tmp_path / "cut.jsonl"
    path.write_text(line_of(record) + "\n")
    assert replay_error(path, capsys).endswith("line 1: the record gives returns, but it is truncated: cut in the "
                                               "middle of a hand, it has none")  # fmt: skip
    del record["returns"]
    assert replay(record).public.status == PLAYING  # without them, a truncated record replays


def test_replay_gif_of_a_record_without_actions_is_a_record_error(tmp_path, capsys):
    pytest.importorskip("PIL")
    record = record_of("tressette", 1)
    record["hands"][0]["actions"] = []
    del record["hands"][0]["result"], record["returns"]
    record["truncated"] = True
    path = tmp_path / "empty.jsonl"
    path.write_text(line_of(record) + "\n")
    gif = tmp_path / "x.gif"
    line = replay_error(path, capsys, "--gif", str(gif))
    assert line.endswith("line 1: the record has no actions, so --gif has no frame") and not gif.exists()


VALID = {game: line_of(record_of(game, 7)).encode() for game in ("tressette", "calabresella")}


@settings(max_examples=50, deadline=None)
@given(
    game=st.sampled_from(sorted(VALID)),
    edits=st.lists(
        st.tuples(
            st.sampled_from(["set", "insert", "delete", "cut"]),
            st.integers(0, 10**6),
            st.binary(min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_any_byte_damage_is_a_record_error_or_a_record_that_replays(game, edits, tmp_path_factory):
    data = bytearray(VALID[game])
    for kind, at, blob in edits:
        at %= len(data) + 1
        if kind == "set":
            data[at : at + len(blob)] = blob
        elif kind == "insert":
            data[at:at] = blob
        elif kind == "delete":
            del data[at : at + len(blob)]
        else:
            del data[at:]
    path = tmp_path_factory.mktemp("damaged") / "r.jsonl"
    path.write_bytes(bytes(data) + b"\n")
    try:
        for record in read_records(path):
            replay(record)
    except RecordError:
        pass


def test_a_record_with_a_switch_that_had_no_effect_still_replays(tmp_path):
    # Records written before such switches were refused: target_score in a single hand changed nothing.
    from tressette_env.engine import legal_actions
    from tressette_env.engine.rules import Rules
    from tressette_env.records import Recorder, replay

    recorder = Recorder("tressette", Rules(), seed=3, players=["random"] * 4)
    state = recorder.start()
    while state.public.status == 0:
        state = recorder.play(state, legal_actions(state)[0])
    record = recorder.finish(state)
    record["rules"] = {**record["rules"], "target_score": 31}
    assert replay(record).public.result == state.public.result
    record["rules"]["targte_score"] = 31
    with pytest.raises(RecordError, match="unknown rule switch 'targte_score'"):
        replay(record)


def test_a_renuncio_step_whose_action_is_no_action_id_is_a_record_error(tmp_path, capsys):
    """A step marked renuncio took any int; replay's screen then failed to name it, with a traceback."""
    from tressette_env.records import RENUNCIO

    record = record_of("tressette", 5)
    record["hands"][0]["actions"][0][1:] = [300, "x", RENUNCIO]
    with pytest.raises(RecordError, match=r"hand 1, action 1: 300 is not an action id \(0 to 255\)"):
        replay(record)
    path = tmp_path / "bad.jsonl"
    path.write_text(line_of(record) + "\n")
    assert "300 is not an action id" in replay_error(path, capsys)


@pytest.mark.parametrize(("key", "value", "words"), [("version", True, "version True"), ("version", 1.0, "version 1.0"),
                                                      ("seed", True, "'seed' must be a JSON int")])  # fmt: skip
def test_a_bool_or_a_float_is_not_a_records_version_or_seed(key, value, words):
    record = record_of("tressette", 1)
    record[key] = value
    with pytest.raises(RecordError, match=words):
        replay(record)
