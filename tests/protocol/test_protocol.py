"""The table protocol: the JSON view (exact, and nothing a seat may not know), bots in subprocesses, ``tressette bot``."""

from __future__ import annotations

import io
import json
import random
import shutil
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.games.family import RULE_SETS
from tests.hidden import random_positions, replay, sampler_deal
from tressette_env import catalog
from tressette_env.agents import HeuristicPlayer
from tressette_env.cli import main
from tressette_env.engine import HAND_OVER, PLAYING, apply, legal_actions, new_game, next_hand, view
from tressette_env.protocol.bot import FIRST_LEGAL, BotError, BotPlayer
from tressette_env.protocol.serve import MAX_MESSAGE, serve
from tressette_env.protocol.state import StateError, decode_public, decode_view, encode_public
from tressette_env.protocol.view import AnswerError, act_message, read_answer

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
SERVE = f"{PYTHON} -m tressette_env.cli bot"
PACKAGE_GAMES = list(RULE_SETS)


def positions(game: str, count: int, seed: int = 0):
    """Positions of random play in ``game`` under each of its test rule sets."""
    rng = random.Random(seed)
    for switches in RULE_SETS[game]:
        rules = catalog.entry(game).make_rules(**switches)
        state = new_game(rules, seed=rng.randrange(10**6))
        for _ in range(count):
            status = state.public.status
            if status == HAND_OVER:
                state = next_hand(state, rng)
                continue
            if status != PLAYING:
                break
            yield state
            state = apply(state, rng.choice(legal_actions(state)))


# ---------------------------------------------------------------------- the view


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_the_state_goes_through_json_and_back_exactly(game):
    for state in positions(game, 60):
        seat = state.public.turn
        message = json.loads(json.dumps(act_message(view(state, seat), legal_actions(state))))
        rebuilt = decode_view(message["seat"], message["hand"], message["private"], message["state"])
        assert rebuilt == view(state, seat)


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_each_legal_action_has_its_id_and_a_name_that_reads_back(game):
    for state in positions(game, 30, seed=1):
        legal = legal_actions(state)
        message = act_message(view(state, state.public.turn), legal)
        assert [item["id"] for item in message["legal"]] == legal
        names = [item["name"] for item in message["legal"]]
        assert len(set(names)) == len(names)
        for item in message["legal"]:
            assert read_answer(json.dumps({"action": item["name"].upper()}), message["legal"]) == item["id"]


def test_a_seat_gets_byte_identical_messages_on_deals_it_cannot_tell_apart():
    """As the observation's no-leak test: another deal that agrees with all a seat knows, the game rebuilt on it."""
    rng = random.Random(5)
    compared = differed = 0
    for position in random_positions(120, seed=7):
        state = position.state
        for seat in range(4):
            other = replay(position, sampler_deal(position, seat, rng))
            legal = legal_actions(state) if state.public.turn == seat else []
            mine = json.dumps(act_message(view(state, seat), legal))
            theirs = json.dumps(act_message(view(other, seat), legal_actions(other) if legal else []))
            assert mine == theirs
            compared += 1
            differed += other.hands != state.hands
    assert differed > 0.8 * compared


@pytest.mark.parametrize("game", PACKAGE_GAMES[1:])
def test_in_every_family_game_two_deals_that_swap_the_other_hands_give_the_same_message(game):
    """At the deal: a seat that cannot see two other seats' hands cannot tell them swapped."""
    entry = catalog.entry(game)
    for switches in RULE_SETS[game]:
        rules = entry.make_rules(**switches)
        state = new_game(rules, seed=3)
        n = len(state.hands)
        for seat in range(n):
            others = [s for s in range(n) if s != seat and state.hands[s].bit_count() == state.hands[seat].bit_count()]
            others = [s for s in others if not state.public.exposed_by(s)]
            if len(others) < 2:
                continue
            a, b = others[:2]
            hands = list(state.hands)
            hands[a], hands[b] = hands[b], hands[a]
            swapped = state._replace(hands=tuple(hands), dealt=tuple(hands))
            assert view(swapped, seat) == view(state, seat)
            legal = legal_actions(state) if state.public.turn == seat else []
            assert json.dumps(act_message(view(swapped, seat), legal)) == json.dumps(
                act_message(view(state, seat), legal)
            )


def test_bad_states_and_answers_are_refused_in_one_line():
    state = new_game(seed=0)
    encoded = encode_public(state.public)
    deep: list = []
    for _ in range(40):
        deep = [deep]
    bad = [
        {"@": "os:system", "v": []},
        {"@": "tressette_env.engine.nope:X", "v": []},
        {"@": "tressette_env.engine.state:SeatView", "v": [1]},
        {"@": "tressette_env.engine.cards:SUITS", "v": []},
        {"@rules": "poker", "switches": {}},
        {"@rules": "tressette", "switches": {"target_score": -3}},
        deep,
    ]
    for value in bad:
        with pytest.raises(StateError) as error:
            decode_public(value)
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
    with pytest.raises(StateError, match="seat"):
        decode_view(9, [], [], encoded)
    # A field every game reads, of the wrong type or out of its range (a traceback, or played as if valid):
    public = state.public
    for field, value, words in [
        ("trick", (99, -7), r"trick\[0\] = 99: an int from 0 to 39"),
        ("history", ("",), r"history\[0\] = '': an int from 0 to 255"),
        ("turn", 1.5, "turn = 1.5: an int from -1 to 3"),
        ("turn", 4, "turn = 4: an int from -1 to 3"),
        ("thirds", ("a", "b"), r"thirds\[0\] = .a.: an int within ±2\*\*24 \(exclusive\)"),
        ("trick", (1, 2, 3, 4, 5), "a list of at most 4 ints"),
        ("hand_number", -1, "hand_number = -1: an int from 0"),
    ]:
        with pytest.raises(StateError, match=words):
            decode_view(0, [], [], encode_public(public._replace(**{field: value})))
    sides = public.table._replace(sides=(0, 1, 0, 9))
    with pytest.raises(StateError, match=r"table.sides\[3\] = 9: an int from 0 to 3"):
        decode_view(0, [], [], encode_public(public._replace(table=sides)))
    with pytest.raises(StateError, match="hand"):
        decode_view(0, [40], [], encoded)
    legal = act_message(view(state, state.public.turn), legal_actions(state))["legal"]
    for line in [
        "",
        "3",
        "{",
        '{"act": 1}',
        '{"action": true}',
        '{"action": 999}',
        '{"action": "4 di picche"}',
        "x" * 10**5,
        "[" * 2000 + "]" * 2000,  # nested past the JSON parser's depth: its RecursionError is an AnswerError
    ]:
        with pytest.raises(AnswerError) as error:
            read_answer(line, legal)
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
    # JSON, but past Python's limit on a number's digits: said as that, not as "not JSON" (a bot's answer line is
    # cut at MAX_ANSWER characters before; the web table's frame: tests/web/test_app.py)
    from tressette_env.protocol.serve import _action

    digits = getattr(sys, "get_int_max_str_digits", lambda: 0)()  # (0: no limit, before Python 3.10.7)
    if digits:
        with pytest.raises(ValueError, match=f"a number of more than {digits} digits"):  # tressette bot's message
            _action(None, '{"type": "act", "seat": ' + "9" * (digits + 100) + "}", None)


# ---------------------------------------------------------------------- tressette bot


def test_tressette_bot_answers_as_the_player_does_and_names_what_it_cannot_read(capsys):
    lines = []
    expected = []
    for state in positions("calabresella", 20):
        seat = view(state, state.public.turn)
        lines.append(json.dumps(act_message(seat, legal_actions(state))))
        expected.append(HeuristicPlayer().act(seat, legal_actions(state), random.Random(0)))
    nonsense = {"@": "tressette_env.engine.state:PublicState", "v": [None] * 19}  # the shape, no game's values
    table = {"@": "tressette_env.engine.state:Table", "v": [2, 5, [0, 1], [0, 1], [0, 1], 0, 0, 7, 0, 0, 1, 0, 0, None]}
    odd = {"@": "tressette_env.engine.state:PublicState", "v": [None] * 9 + [table] + [None] * 9}
    lines[3:3] = [
        '{"type": "end"}',
        "not json",
        "[" * 5000 + "]" * 5000,  # past the JSON parser's depth (RecursionError): an error line, and the next is read
        '{"type": "act", "legal": [{"id": 1}], "seat": 0, "hand": [], "state": 5}',
        json.dumps({"type": "act", "legal": [{"id": 1}, {"id": 2}], "seat": 0, "hand": [], "state": nonsense}),
        json.dumps({"type": "act", "legal": [{"id": 1}, {"id": 2}], "seat": 0, "hand": [1], "state": odd}),
    ]
    out = []

    class Out:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    serve(HeuristicPlayer(), lines, Out(), random.Random(0))
    answers = [json.loads(line) for line in "".join(out).splitlines()]
    assert [a["action"] for a in answers if "action" in a] == expected
    errors = [a["error"] for a in answers if "error" in a]
    assert len(errors) == 5 and errors[0].startswith("ValueError: not JSON"), errors
    assert errors[1].startswith("ValueError: not JSON") and len(errors[1]) < 400, errors


# ---------------------------------------------------------------------- bots in subprocesses


def eval_json(tmp_path, *argv) -> tuple[int, dict | None]:
    out = tmp_path / "result.json"
    code = main(["eval", *argv, "--no-progress", "--json", str(out)])
    return code, json.loads(out.read_text()) if code == 0 else None


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_our_heuristic_through_the_pipe_plays_as_it_does_in_process(game, tmp_path):
    args = ["--game", game, "--deals", "2", "--workers", "1"]
    # (its first decision's limit includes the bot's start-up: in due's compiles its numba search where uncached)
    code, piped = eval_json(tmp_path, "--bot", f"h={SERVE} heuristic", "--bot-timeout", "120", "h", "random", *args)
    assert code == 0
    _, direct = eval_json(tmp_path, "heuristic", "random", *args)
    assert piped["mean_points_diff"] == direct["mean_points_diff"]


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_a_bot_written_from_the_contract_alone_plays_every_game(game, tmp_path):
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_LEGAL)
    code, result = eval_json(tmp_path, "--bot", f"first={PYTHON} {bot}", "first", "random", "--game", game,
                             "--deals", "2", "--workers", "1")  # fmt: skip
    assert code == 0 and result["boards"] == 2


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_javascript_example_bot_plays_in_the_evaluation(tmp_path):
    script = ROOT / "examples" / "bots" / "random_legal.js"
    code, result = eval_json(tmp_path, "--bot", f"js=node {script}", "js", "random", "--game", "tressette_a_chiamare",
                             "--deals", "2", "--workers", "2")  # fmt: skip
    assert code == 0 and result["boards"] == 2


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a killed child that no init has reaped yet, a zombie, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


BROKEN = {
    "garbage": ("print('hello', flush=True)", "not JSON: hello"),
    # an escape sequence and a bell, which would retitle and recolour the terminal: written escaped
    "escapes": (
        "print('hello\\x1b]0;PWNED\\x07\\x1b[31mRED', flush=True)",
        "not JSON: hello\\x1b]0;PWNED\\x07\\x1b[31mRED",
    ),
    "illegal": ("print('{\"action\": 254}', flush=True)", "action 254 is not legal; legal:"),
    "a name of nothing": ('print(\'{"action": "asso di picche"}\', flush=True)', "is no legal action's name"),
    "silent": ("time.sleep(60)", "no answer within 0.5 s"),
    "dies": ("sys.exit(3)", "ended (exit status 3) without answering"),
}


@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("workers", [1, 2])
def test_a_broken_bot_stops_the_evaluation_with_one_line_and_leaves_no_process(case, workers, tmp_path, capsys):
    body, expected = BROKEN[case]
    pids = tmp_path / "pids"
    bot = tmp_path / "bot.py"
    bot.write_text(textwrap.dedent(f"""\
        import os, subprocess, sys, time
        with open({str(pids)!r}, "a") as f:
            f.write(f"{{os.getpid()}}\\n")
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            f.write(f"{{child.pid}}\\n")
        for line in sys.stdin:
            {body}
        """))  # fmt: skip
    limit = "0.5" if case == "silent" else "30"  # (the first decision's limit includes the bot's start-up)
    code = main(["eval", "--bot", f"bad={PYTHON} {bot}", "--bot-timeout", limit, "bad", "random", "--deals", "2",
                 "--workers", str(workers), "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("tressette eval: error: bot bad: ") and expected in err[0], err
    assert err[0].isprintable(), err  # no control character of the bot's reaches the terminal
    started, deadline = [int(pid) for pid in pids.read_text().split()], time.monotonic() + 10
    while any(map(running, started)) and time.monotonic() < deadline:  # killed: gone once the kernel reaped them
        time.sleep(0.05)
    assert [pid for pid in started if running(pid)] == []


def test_a_bot_that_closes_its_output_and_runs_on_is_said_to_have_closed_it_not_to_have_ended(tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text("import os, sys, time\nos.close(1)\nfor line in sys.stdin:\n    time.sleep(60)\n")
    start = time.monotonic()
    code = main(["eval", "--bot", f"bad={PYTHON} {bot}", "--bot-timeout", "30", "bad", "random", "--deals", "2",
                 "--workers", "1", "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and time.monotonic() - start < 20
    assert err == ["tressette eval: error: bot bad: closed its output without answering (it is still running)"], err


def test_a_bot_that_cannot_start_and_bad_bot_options_are_named(tmp_path, capsys):
    code = main(["eval", "--bot", "ghost=/no/such/program", "ghost", "random", "--deals", "2", "--workers", "1"])
    assert code == 1
    assert "bot ghost: cannot start /no/such/program" in capsys.readouterr().err
    for bot, words in [
        ("noequals", "NAME=COMMAND"),
        ("random=x", "not one of the players"),
        ("spare=x", "among the players"),
    ]:
        with pytest.raises(SystemExit) as error:
            main(["eval", "--bot", bot, "heuristic", "random", "--deals", "2"])
        assert error.value.code == 2
        assert words in capsys.readouterr().err
    with pytest.raises(ValueError, match="timeout"):
        BotPlayer("b", "x", timeout=0)
    with pytest.raises(SystemExit) as error:
        main(["eval", "--bot", 'b=python "my_bot.py', "b", "random", "--deals", "2"])
    assert error.value.code == 2 and (
        'bot b: the command python "my_bot.py cannot be split into words as a shell would: no closing quotation'
        in capsys.readouterr().err
    )
    with pytest.raises(BotError, match="cannot start"):
        BotPlayer("b", "/no/such/program").ask("{}")


def test_tressette_play_seats_a_bot_among_the_opponents(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_LEGAL)
    tressette = str(Path(sys.executable).with_name("tressette"))
    args = ["play", "--game", "calabresella", "--seed", "4", "--bot", f"first={PYTHON} {bot}"]
    child = pexpect.spawn(tressette, [*args, "--opponents", "first", "random", "--no-confirm"], encoding="utf-8",
                          timeout=30, dimensions=(50, 200))  # fmt: skip
    typed = 0
    while child.expect([r"your action \(", "episode over: ([^\r\n]*)\r\n"]) == 0:
        child.sendline("1")
        typed += 1
    child.expect(r"(Enter|q) leaves")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and typed >= 1


def test_a_hostile_record_cannot_hang_or_flood_tressette_bot():
    """Negative card masks (an endless bit walk), a table of 10**8 seats, a huge line: each one line of error."""
    state = new_game(seed=0)
    seat = view(state, state.public.turn)
    good = act_message(seat, legal_actions(state))

    def with_state(path, value):
        message = json.loads(json.dumps(good))
        target = message["state"]["v"]
        for step in path[:-1]:
            target = target[step]["v"]
        target[path[-1]] = value
        return json.dumps(message)

    fields = list(type(state.public)._fields)
    table = fields.index("table")
    lines = [
        with_state([fields.index("played")], -1),
        with_state([table, 0], 10**8),
        with_state([fields.index("hand_number")], 10**200),
        "x" * (MAX_MESSAGE + 10) + "\n",
        json.dumps(good),
    ]
    out = io.StringIO()
    start = time.monotonic()
    serve(HeuristicPlayer(), io.StringIO("".join(line if line.endswith("\n") else line + "\n" for line in lines)), out,
          random.Random(0))  # fmt: skip
    assert time.monotonic() - start < 30
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [("error" in a) for a in answers] == [True, True, True, True, False]
    assert "card mask" in answers[0]["error"] and "2 to 8 seats" in answers[1]["error"]
    assert "longer than" in answers[3]["error"]


def test_a_number_a_player_shifts_by_is_refused_past_its_range_before_any_player_reads_it():
    """A thirds count of 2**33 made ``tressette bot ppo`` take 2.3 GB (the thermometer ``(1 << t) - 1``) before it failed;
    Calabresella's face-down count of 10**9 ran the search past its limit. Each is one line of error now, at once."""
    from tressette_env.games.calabresella import CalabresellaRules

    public = new_game(seed=0).public
    cases = [
        (
            public._replace(thirds=(2**33, 0)),
            r"thirds\[0\] = 8589934592: a count, a seat, a card, an action or a hand's points",
        ),
        (public._replace(tricks_done=2**33), "tricks_done = 8589934592: a count"),
        (public._replace(tricks_done=11), "tricks_done = 11: an int from 0 to 10"),
        (public._replace(hand_number=2**50), "hand_number = 1125899906842624: a match's score or hand count"),
        (public._replace(played=2**400), "played = .*: a card mask is an int from 0 to below 2\\*\\*320"),
    ]
    calabresella = new_game(CalabresellaRules(), seed=0).public
    extra = calabresella.table.extra._replace(face_down=10**9)
    cases.append((calabresella._replace(table=calabresella.table._replace(extra=extra)), "table.extra.face_down = "))
    shown_below_zero = calabresella.table.extra._replace(monte_shown=-(2**319))
    cases.append((calabresella._replace(table=calabresella.table._replace(extra=shown_below_zero)), "monte_shown = "))
    cases.append(
        (
            public._replace(match_score=(2**50, 0)),
            r"match_score\[0\] = .*: a match's score or hand count lies within ±2\*\*48",
        )
    )
    for bad, words in cases:
        start = time.monotonic()
        with pytest.raises(StateError, match=words) as error:
            decode_view(0, [], [], json.loads(json.dumps(encode_public(bad))))
        assert time.monotonic() - start < 5 and "\n" not in str(error.value) and len(str(error.value)) < 300


def test_a_long_matchs_score_past_the_bound_of_counts_is_read():
    """A perdere to 10,000 hands with charges of 10,000 reached a score of 16,784,242 (past 2**24) after 2,934 hands: a
    real state, refused by the bound of counts until match scores got their own."""
    public = new_game(seed=0).public._replace(match_score=(16_784_242, -(2**40)), hand_number=23_000_000)
    assert decode_view(0, [], [], json.loads(json.dumps(encode_public(public)))).public == public


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_only_card_masks_are_let_past_the_bound_of_counts(game):
    """Every number of a real record past ``MAX_COUNT`` is a card mask (``MASK_FIELDS``), and each of those names is
    a field of some game's record: the bound refuses no real state, and names no field that does not exist."""
    from tressette_env.protocol.state import MASK_FIELDS, MAX_COUNT, _field_name, _ints

    for state in positions(game, 80, seed=2):
        for where, number in _ints(state.public):
            if abs(number) >= MAX_COUNT:  # (a match's long scores and hand counts, SCORE_FIELDS, are not met here)
                assert _field_name(where) in MASK_FIELDS, where
    names = {
        _field_name(where)
        for g in PACKAGE_GAMES
        for state in positions(g, 40, seed=3)
        for where, _ in _ints(state.public)
    }
    assert MASK_FIELDS <= names, MASK_FIELDS - names


@pytest.mark.parametrize(
    "change, error",
    [
        ({"hand": []}, "'legal' plays card"),  # the heuristic answered "max() arg is an empty sequence"
        ({"legal": [{"id": 255, "name": "x"}]}, "'legal' holds id 255: action ids are 0..254"),
        ({"legal": [{"id": -1, "name": "x"}]}, "'legal' holds id -1"),
    ],
)
def test_an_act_message_whose_legal_list_does_not_fit_its_hand_is_named(change, error):
    state = next(iter(positions("tressette", 5)))
    message = {**act_message(view(state, state.public.turn), legal_actions(state)), **change}
    out = io.StringIO()
    serve(HeuristicPlayer(), [json.dumps(message)], out, random.Random(0))
    answer = json.loads(out.getvalue())
    assert list(answer) == ["error"] and answer["error"].startswith(f"ValueError: {error}"), answer


def test_a_decision_past_the_limit_is_answered_with_an_error():
    class Slow:
        def act(self, view, legal, rng):
            time.sleep(5)

    state = new_game(seed=0)
    line = json.dumps(act_message(view(state, state.public.turn), legal_actions(state))) + "\n"
    out = io.StringIO()
    serve(Slow(), io.StringIO(line), out, random.Random(0), decision_limit=0.3)
    assert json.loads(out.getvalue()) == {"error": "the decision took more than 0.3 s"}


def test_tressette_bot_refuses_the_human_player(capsys):
    with pytest.raises(SystemExit) as error:
        main(["bot", "human"])
    assert error.value.code == 2 and "tressette play" in capsys.readouterr().err
