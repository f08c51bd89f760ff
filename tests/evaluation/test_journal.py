"""An interrupted duplicate evaluation resumes from its journal and gives the uninterrupted result."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from tressette_env import catalog
from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.agents.solver_core import COMPILED
from tressette_env.cli import main
from tressette_env.evaluation import duplicate
from tressette_env.evaluation.journal import Journal, JournalError

PYTHON = sys.executable


def run(path=None, boards=6, seed=3, workers=1, **kwargs):
    return duplicate(HeuristicPlayer(), RandomPlayer(), boards=boards, seed=seed, workers=workers, progress=False,
                     journal=path, **kwargs)  # fmt: skip


def test_a_run_cut_short_mid_line_resumes_to_the_uninterrupted_result(tmp_path):
    whole = run()
    path = tmp_path / "j.jsonl"
    run(path)
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 7 and json.loads(lines[0])["journal"] == "tressette-eval/1"
    path.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])  # killed while writing board 2
    played = []

    class Counting(HeuristicPlayer):
        def act(self, view, legal, rng):
            played.append(1)
            return super().act(view, legal, rng)

    resumed = duplicate(Counting(), RandomPlayer(), boards=6, seed=3, workers=1, progress=False, journal=path,
                        names=whole.players)  # fmt: skip
    assert resumed == whole and resumed.boards == 6
    assert played  # boards 2 to 5 were played again, boards 0 and 1 were not
    assert len(path.read_text().splitlines()) == 7
    assert sorted(json.loads(line)["board"] for line in path.read_text().splitlines()[1:]) == list(range(6))


def test_more_boards_go_on_from_fewer_and_workers_do_not_change_the_result(tmp_path):
    path = tmp_path / "j.jsonl"
    run(path, boards=4)
    assert run(path, boards=8, workers=2) == run(boards=8)
    assert run(path, boards=5) == run(boards=5)  # a smaller evaluation takes the boards it needs


@pytest.mark.skipif(
    not COMPILED,
    reason="its third player searches: minutes in plain Python (no numba); the runs with the fast extra play it",
)
def test_a_round_robin_keeps_each_pairs_boards_in_one_file(tmp_path, capsys):
    path = tmp_path / "rr.jsonl"
    argv = ["eval", "heuristic", "random", "search:samples=2", "--deals", "3", "--workers", "1", "--no-progress"]
    assert main([*argv, "--journal", str(path), "--json", str(tmp_path / "a.json")]) == 0
    assert len(path.read_text().splitlines()) == 1 + 3 * 3
    assert main([*argv, "--journal", str(path), "--json", str(tmp_path / "b.json")]) == 0
    a, b = (json.loads((tmp_path / f"{x}.json").read_text())["pairs"] for x in "ab")
    assert [p["mean_points_diff"] for p in a] == [p["mean_points_diff"] for p in b]
    assert len(path.read_text().splitlines()) == 1 + 3 * 3  # nothing played twice


def test_a_journal_of_another_evaluation_or_a_broken_one_is_refused_with_its_line(tmp_path):
    path = tmp_path / "j.jsonl"
    run(path, boards=3)
    with pytest.raises(JournalError, match="seed 3; this evaluation is tressette .*seed 4"):
        run(path, boards=3, seed=4)
    rules = catalog.entry("tressette_in_due").make_rules()
    with pytest.raises(JournalError, match="give the same game, rules and seed"):
        Journal(path, rules, 3)
    lines = path.read_text().splitlines(keepends=True)
    broken = [
        ("not JSON", "{nope\n"),
        ("a board is an object with players, board, plays", '{"players": ["a", "b"]}\n'),
        ("board is an int from 0", json.dumps({"players": ["a", "b"], "board": -1, "plays": []}) + "\n"),
        ("plays is a list of 2 to 8 plays", json.dumps({"players": ["a", "b"], "board": 0, "plays": [1]}) + "\n"),
        ("diffs holds 'x'", lines[1].replace('"diffs":[', '"diffs":["x",', 1)),
        ("a_won is true, false", lines[1].replace('"a_won":null', '"a_won":2', 1)),
        ("clock is A's and B's", lines[1].replace('"clock":[[', '"clock":[[1,', 1)),
        ("not JSON", "[" * 100_000 + "\n"),  # too deep for the JSON reader
    ]
    for words, line in broken:
        assert line != lines[1]
        path.write_text(lines[0] + line + lines[2])
        with pytest.raises(JournalError, match=f"line 2: .*{words[:20]}".replace("(", r"\(")) as error:
            run(path, boards=3)
        assert len(str(error.value)) < 500
    path.write_text('{"some": "other file"}\n')
    with pytest.raises(JournalError, match="not an evaluation journal"):
        run(path, boards=3)


def test_tressette_eval_resumes_after_a_bot_died(tmp_path, capsys):
    """The bot dies in board 3 of 6; the same command, once it is mended, plays only what is missing."""
    marker = tmp_path / "die"
    marker.touch()
    bot = tmp_path / "bot.py"
    bot.write_text(
        textwrap.dedent(f"""\
        import json, os, sys
        acts = 0
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "act":
                acts += 1
                if acts == 100 and os.path.exists({str(marker)!r}):
                    os.remove({str(marker)!r})
                    sys.exit(3)
                print(json.dumps({{"action": message["legal"][-1]["id"]}}), flush=True)
        """)
    )
    journal = tmp_path / "boards.jsonl"
    argv = ["eval", "--bot", f"last={PYTHON} {bot}", "last", "random", "--deals", "6", "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main([*argv, "--journal", str(journal)]) == 1
    err = capsys.readouterr().err
    assert "bot last: ended (exit status 3)" in err and f"the boards played are in {journal}" in err
    done = len(journal.read_text().splitlines()) - 1
    assert 0 < done < 6
    assert main([*argv, "--journal", str(journal), "--json", str(tmp_path / "resumed.json")]) == 0
    assert main([*argv, "--json", str(tmp_path / "whole.json")]) == 0
    resumed, whole = (json.loads((tmp_path / f"{x}.json").read_text()) for x in ("resumed", "whole"))
    assert resumed["mean_points_diff"] == whole["mean_points_diff"] and resumed["ci95"] == whole["ci95"]


def test_a_bad_journal_is_a_usage_error_of_tressette_eval(tmp_path, capsys):
    path = tmp_path / "j.jsonl"
    path.write_text("garbage\n")
    with pytest.raises(SystemExit) as error:
        main(["eval", "heuristic", "random", "--deals", "2", "--workers", "1", "--journal", str(path)])
    assert error.value.code == 2 and "--journal: " in capsys.readouterr().err


def test_a_file_that_is_no_journal_is_left_as_it_was_and_a_cut_header_is_written_again(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"a": 1}')  # no newline: not a journal cut short, someone's file
    with pytest.raises(JournalError, match="not an evaluation journal"):
        run(path, boards=2)
    assert path.read_text() == '{"a": 1}'
    run(path.with_name("j.jsonl"), boards=2)
    header = path.with_name("j.jsonl").read_text().splitlines()[0]
    cut_short = tmp_path / "cut.jsonl"
    cut_short.write_text(header[:20])  # killed while writing its header
    assert run(cut_short, boards=2) == run(boards=2)
    assert cut_short.read_text().splitlines()[0] == header
    with pytest.raises(JournalError, match="not a file"):
        run(tmp_path, boards=2)
    assert run(tmp_path / "new" / "dir" / "j.jsonl", boards=2) == run(boards=2)


def test_numbers_out_of_bounds_and_plays_of_another_shape_are_refused(tmp_path):
    path = tmp_path / "j.jsonl"
    run(path, boards=2)
    lines = path.read_text().splitlines(keepends=True)
    board = json.loads(lines[1])
    for change, words in [
        (lambda b: b["plays"][0].update(diffs=[10**400]), "beyond"),
        (lambda b: b["plays"][0].update(diffs=[1e308], a_points=[1.0], field_points=[1.0]), "beyond"),
        (lambda b: b["plays"][0]["clock"][0].__setitem__(1, -3), "none negative"),
        (lambda b: b["plays"][0].update(diffs=[], a_points=[], field_points=[]), "a list of 1 to"),
        (lambda b: b["plays"][0].update(a_points=[1, 2, 3]), "as long as each other"),
        (lambda b: b["plays"].append(b["plays"][0]), "a list of 2 plays here"),
    ]:
        broken = json.loads(lines[1])
        change(broken)
        path.write_text(lines[0] + json.dumps(broken) + "\n")
        with pytest.raises(JournalError, match=words):
            run(path, boards=2)
    assert board["plays"][0]["diffs"]  # the unbroken board reads
    path.write_text("".join(lines))
    assert run(path, boards=2) == run(boards=2)


def test_a_failure_in_a_worker_keeps_the_boards_the_others_finished(tmp_path):
    path = tmp_path / "j.jsonl"

    with pytest.raises(RuntimeError, match="boom"):
        duplicate(FailsOnce(), RandomPlayer(), boards=40, seed=0, workers=2, progress=False, journal=path)
    kept = [json.loads(line)["board"] for line in path.read_text().splitlines()[1:]]
    assert kept and 9 not in kept


class FailsOnce(RandomPlayer):
    """Fails in board 9 of seed 0, mid-hand."""

    name = "fails"

    def act(self, view, legal, rng):
        if view.public.tricks_done == 5 and random_board_is(view, 9):
            raise RuntimeError("boom")
        return super().act(view, legal, rng)


def random_board_is(view, board: int) -> bool:
    """Whether the deal on the table is board ``board``'s of seed 0 (its first trick's cards tell)."""
    from tressette_env.engine import new_game
    from tressette_env.evaluation.duplicate import _board_seed

    state = new_game(seed=_board_seed(0, board))
    return view.hand & state.hands[view.seat] == view.hand


def test_resuming_with_records_plays_again_the_boards_journaled_without_them(tmp_path):
    path = tmp_path / "j.jsonl"
    run(path, boards=2, seed=1)
    resumed = run(path, boards=4, seed=1, record=True)
    assert len(resumed.game_records()) == 8 and resumed == run(boards=4, seed=1)
    assert resumed.game_records() == run(boards=4, seed=1, record=True).game_records()
