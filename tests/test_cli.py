"""The ``tressette`` command line."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tressette_env.cli import main


def usage_error(argv, capsys) -> str:
    """The error line of a command refused before any work (status 2, no traceback)."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_eval_prints_the_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "out.json"
    status = main(["eval", "heuristic", "random", "--deals", "40", "--seed", "0", "--json", str(out), "--no-progress"])
    assert status == 0
    printed = capsys.readouterr().out
    assert "| heuristic | random | 40 |" in printed
    result = json.loads(out.read_text())
    assert result["players"] == ["heuristic", "random"] and result["deals"] == 40
    low, high = result["ci95"]
    assert low <= result["mean_points_diff"] <= high and low > 0


def test_eval_of_a_perdere_rotates_the_players_through_every_seat(tmp_path, capsys):
    out = tmp_path / "out.json"
    argv = ["eval", "heuristic", "random", "--game", "tressette_a_perdere", "--players", "3", "--deals", "30"]
    assert main([*argv, "--json", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "| player A | player B | boards | A's charge per hand | 95% CI | B's charge per hand |" in printed
    assert "each deal played 3 times, A in each seat in turn and B in the others" in printed
    result = json.loads(out.read_text())
    assert result["rules"]["players"] == 3 and result["against"] == "field" and result["hands"] == 90
    assert result["ci95"][0] > 0 and result["points"][0] < result["points"][1]
    line = usage_error(["eval", "heuristic", "random", "--players", "4"], capsys)
    assert "--players: tressette has a fixed number of players (no players switch)" in line
    line = usage_error(["eval", "heuristic", "random", "--game", "tressette_a_perdere", "--players", "9"], capsys)
    assert "players=9: must be an int 3..8" in line


def test_round_robin_with_rules_and_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "rr.png"
    status = main(
        [
            "eval", "random", "heuristic", "random:", "--deals", "6", "--rule", "episode=match",
            "--rule", "target_score=11", "--png", str(png), "--json", str(tmp_path / "rr.json"), "--no-progress",
        ]
    )  # fmt: skip
    assert status == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pairs = json.loads((tmp_path / "rr.json").read_text())["pairs"]
    assert len(pairs) == 3 and all(p["match_win_rate"] is not None for p in pairs)
    assert "A's match wins" in capsys.readouterr().out


def test_bad_players_and_rules_are_named(capsys):
    line = usage_error(["eval", "heuristic", "grandmaster", "--deals", "4"], capsys)
    assert line.startswith("tressette eval: error: unknown player 'grandmaster'; the players are: random")
    line = usage_error(["eval", "heuristic", "random", "--rule", "accusi=maybe", "--deals", "4"], capsys)
    assert "accusi is true or false, e.g. --rule accusi=false" in line
    assert "accusi is true or false" in usage_error(["eval", "heuristic", "random", "--rule", "accusi=1"], capsys)
    assert "episode" in usage_error(["eval", "heuristic", "random", "--rule", "episode"], capsys)
    assert "target_score=0: must be an int 1..10000" in usage_error(
        ["eval", "random", "random:", "--rule", "target_score=0"], capsys
    )
    assert "at least two different players" in usage_error(["eval", "heuristic", "--deals", "4"], capsys)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--deals", "1"], "argument --deals: must be an integer >= 2"),
        (["--deals", "0"], "argument --deals: must be an integer >= 2"),
        (["--deals", "-5"], "argument --deals: must be an integer >= 2"),
        (["--workers", "0"], "argument --workers: must be an integer >= 1"),
    ],
)
def test_eval_counts_are_checked_before_playing(flags, message, tmp_path, capsys):
    out = tmp_path / "out.json"
    assert message in usage_error(["eval", "heuristic", "random", "--json", str(out), *flags], capsys)
    assert not out.exists()


TRAIN_HINT = 'pip install -e ".[train]" (from a clone) or pip install "tressette-env[train]"'
EVAL_HINT = 'pip install -e ".[eval]" (from a clone) or pip install "tressette-env[eval]"'


def test_eval_names_a_missing_package_before_playing(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out.json"
    (tmp_path / "model.zip").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "torch", None)  # as if the train extras were not installed
    line = usage_error(["eval", str(tmp_path / "model.zip"), "random", "--json", str(out)], capsys)
    assert f"needs torch, in the training extras: {TRAIN_HINT}" in line
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    line = usage_error(["eval", "heuristic", "random", "--json", str(out), "--png", str(tmp_path / "x.png")], capsys)
    assert f"tressette eval: error: --png needs matplotlib: {EVAL_HINT}" == line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.zip"]


def test_every_install_hint_works_from_a_clone_and_from_the_index():
    """A hint that names only the package index cannot be run by a user of a clone, and the reverse."""
    root = Path(__file__).resolve().parents[1] / "tressette_env"
    files = [
        "cli.py",
        "evaluation/report.py",
        "training/__init__.py",
        "training/train.py",
        "training/config.py",
        "vector/sb3.py",
    ]
    files.append("learned/loading.py")
    for name in files:
        text = " ".join((root / name).read_text().split())
        for extra in ("train", "eval"):
            index_hint = f'pip install "tressette-env[{extra}]"'
            assert text.count(f"pip install 'tressette-env[{extra}]'") == 0, name
            if index_hint in text:
                # every mention of the index form comes with the clone form just before it
                assert text.count(index_hint) <= text.count(f'pip install -e ".[{extra}]"'), (name, extra)


def test_version(capsys):
    from tressette_env import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"tressette {__version__}"


@pytest.mark.parametrize(
    ("argv", "usage", "message"),
    [
        (["train", "--totl-timesteps", "1"], "usage: tressette train", "(did you mean --total-timesteps?)"),
        (["eval", "heuristic", "random", "--deal", "5", "--sed", "1"], "usage: tressette eval", "--sed"),
        (["--foo", "eval", "heuristic", "random"], "usage: tressette [-h]", "unrecognized arguments: --foo"),
    ],
)
def test_unknown_options_are_reported_with_their_command_usage(argv, usage, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage) and "Traceback" not in err
    assert "unrecognized arguments" in err.splitlines()[-1] and message in err.splitlines()[-1]
    assert list(tmp_path.iterdir()) == []


def test_players_may_come_on_both_sides_of_an_option(capsys):
    """argparse's first pass took ``heuristic`` only and called ``random`` unrecognized; the players are all read."""
    assert main(["eval", "heuristic", "--deals", "4", "random", "--seed", "3"]) == 0
    before = capsys.readouterr().out
    assert main(["eval", "--deals", "4", "--seed", "3", "heuristic", "random"]) == 0
    after = capsys.readouterr().out
    row = [line for line in before.splitlines() if line.startswith("| heuristic | random |")]
    assert len(row) == 1 and row == [line for line in after.splitlines() if line.startswith("| heuristic | random |")]
    assert main(["eval", "heuristic", "--deals", "4", "--seed", "3", "--", "random"]) == 0  # "--": positionals after
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("| heuristic | random |")] == row


def test_a_stray_positional_is_still_refused_with_the_command_usage(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(tmp_path / "a.jsonl"), "--episode", "1", "extra"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: tressette replay") and err.splitlines()[-1].endswith("unrecognized arguments: extra")


def test_train_help_is_plain_words_with_values_as_typed(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for markup in ("``", "('", "(default: None)", "0.0909090", "(default: True)", "(default: False)"):
        assert markup not in out, markup
    for shown in (
        "(default: heuristic)",
        "(default: random heuristic)",
        "(default: 256 256)",
        "(default: 0.0909)",
        "(default: on)",
        "The file must be trusted",
        "in the whole run",
        "--game GAME The game: tressette (the four-seat game), tressette_in_due, tressette_col_morto",
        "tressette_col_morto: players, dummy_exposed",  # --rule lists each game's switches
    ):
        assert shown in out, shown
    threads = out[out.index("--torch-threads N") :]
    # The default and a pointer to the README's measurements, no speed-up figures of its own to contradict them.
    assert "(default: 1)" in threads and "README" in threads and not re.search(r"\d(\.\d+)?x", threads)


def test_eval_help_shows_a_single_percent_sign(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "with a 95% CI" in out and "%%" not in out


def test_eval_help_lists_model_files_as_players(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "player specs: random, heuristic, search, search_v1, ppo, human" in out
    assert "or a trained model's path ending in .npz or .zip" in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--n-envs", "0"], "n_envs=0: must be an integer >= 1"),
        (["--total-timesteps", "-1"], "total_timesteps=-1: must be an integer >= 1"),
        (["--eval-boards", "1"], "eval_boards=1: must be an integer >= 2"),
        (["--final-boards", "0"], "final_boards=0: must be an integer >= 2"),
        (["--pool-size", "0"], "pool_size=0: must be an integer >= 1"),
        (["--snapshot-every", "0"], "snapshot_every=0: must be an integer >= 1"),
        (["--n-steps", "0"], "n_steps=0: must be an integer >= 2"),
        (["--batch-size", "1"], "batch_size=1: must be an integer >= 2"),
        (["--eval-every", "-1"], "eval_every=-1: must be an integer >= 0"),
        (["--imitate", "bob"], "imitate: unknown player 'bob'; the players are: random, heuristic"),
        (["--imitate", "self"], "imitate='self': only opponents and partner may be the learner itself"),
        (["--eval-against", "random", "self"], "eval_against='self': only opponents and partner may be"),
        (["--opponents", "nobody"], "opponents: unknown player 'nobody'"),
        (["--opponents", "slef"], "ending in .npz or .zip (or self: the learner itself)"),  # train's own player
        (["--imitate", "foo"], "ending in .npz or .zip (or none: no warm start)"),
        (["--partner", "search:depth=3"], "partner: bad options for player 'search'"),
        (["--rule", "signals=0"], "signals is true or false, e.g. --rule signals=false"),
        (["--rule", "episode=set"], "rule switch episode='set': must be one of 'hand', 'match'"),
        (["--resume", "missing.zip"], "resume='missing.zip': no checkpoint file there"),
        (["--net-arch", "0"], "net_arch=(0,): hidden layer widths, 1 to 15 integers from 1 to 4096"),
        (["--net-arch", "5000"], "net_arch=(5000,): hidden layer widths, 1 to 15 integers from 1 to 4096"),
        (["--net-arch", *["8"] * 16], "hidden layer widths, 1 to 15 integers"),
        (["--net-arch", "4096", "4096"], "a policy of 20680865 numbers (weights and biases, from the 790 observation"),
        (["--learning-rate", "-1"], "learning_rate=-1.0: must be a number > 0"),
        (["--gamma", "1.5"], "gamma=1.5: must be a number in (0, 1]"),
        (["--gae-lambda", "-0.1"], "gae_lambda=-0.1: must be a number in [0, 1]"),
        (["--ent-coef", "-0.01"], "ent_coef=-0.01: must be a number >= 0"),
        (["--reward-scale", "0"], "reward_scale=0.0: must be a number > 0"),
        (["--batched", "-1"], "batched=-1: must be an integer >= 0 (0: single-deal environments)"),
        (
            ["--batched", "64", "--opponents", "heuristic", "self"],
            "a batched environment plays one of random, heuristic",
        ),
        (["--batched", "64", "--opponents", "ppo"], "opponents=('ppo',): a batched environment plays one of random"),
        (["--batched", "64", "--partner", "ppo"], "partner='ppo': a batched environment's partner is self, random or"),
        (["--batched", "64", "--subproc"], "subproc=True: a batched environment runs in this process; drop subproc"),
        (["--batched", "64", "--n-envs", "8"], "n_envs=8: the number of single-deal environments; with batched=64"),
        (["--game", "tressette_scopa"], "argument --game: invalid choice: 'tressette_scopa' (choose from"),
        (
            ["--game", "tressette_in_due", "--batched", "64", "--history"],
            "batched=64: the history observation is batched in the four-seat game only",
        ),
        (
            ["--game", "tressette_a_perdere", "--batched", "64", "--opponents", "random", "--no-dense-reward"]
            + ["--rule", "episode=match", "--rule", "match_end=elimination"],
            "batched=64: in an elimination match the learner may leave the table",
        ),
        (
            ["--game", "tressette_a_chiamare", "--batched", "64", "--opponents", "random", "self"],
            "a batched environment plays one of random, heuristic as every other player",
        ),
        (
            ["--game", "tressette_in_due", "--partner", "heuristic"],
            "partner='heuristic': a fixed partner is the four-seat game's (game=tressette); in tressette_in_due each "
            "player plays for himself: --opponents plays every other agent",
        ),
        (
            ["--game", "tressette_col_morto", "--partner", "random"],
            "in tressette_col_morto the two players who do not deal play together, so the partner changes",
        ),
        (
            ["--game", "tressette_in_due", "--rule", "signals=false"],
            "tressette_in_due: unknown rule switch 'signals'; the switches are: deal, follow_suit_with_stock",
        ),
        (["--game", "tressette_col_morto", "--rule", "players=4"], "rule switch players=4: must be one of 3, 2"),
        (["--game", "tressette_in_due", "--rule", "show_drawn=1"], "show_drawn is true or false"),
        (["--rule", "players=2"], "tressette: unknown rule switch 'players'; the switches are: target_score"),
    ],
)
def test_train_settings_are_checked_before_any_work(flags, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    line = usage_error(["train", "--run-dir", "runs", *flags], capsys)
    assert line.startswith("tressette train: error: ") and message in line
    assert list(tmp_path.iterdir()) == []


def test_train_without_the_train_extras_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)
    line = usage_error(["train", "--run-dir", str(tmp_path / "runs")], capsys)
    assert line.endswith(f"training needs torch, stable-baselines3 and sb3-contrib: {TRAIN_HINT}")
    assert list(tmp_path.iterdir()) == []


def test_the_console_script_is_installed():
    script = shutil.which("tressette") or str(Path(sys.executable).with_name("tressette"))
    out = subprocess.run([script, "eval", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "Play every deal twice" in out.stdout


def test_a_search_in_plain_python_is_noted_with_what_to_install(monkeypatch):
    """Without numba ``search`` took 457 ms a decision and nothing said why (a new user's report)."""
    from tressette_env.cli import _plain_python_search_note

    monkeypatch.setenv("TRESSETTE_NUMBA", "0")
    note = _plain_python_search_note(["search:samples=2", "random"])
    assert note.startswith("search's double-dummy solver runs in plain Python") and "TRESSETTE_NUMBA=0" in note
    assert _plain_python_search_note(["heuristic", "random"]) is None  # nothing searches
    monkeypatch.delenv("TRESSETTE_NUMBA")
    monkeypatch.setattr("tressette_env.agents.numba_switch.numba_module", lambda: None)  # numba not installed
    assert 'pip install -e ".[fast]"' in _plain_python_search_note(["search_v1"])
    monkeypatch.setattr("tressette_env.agents.numba_switch.numba_module", lambda: object())  # compiled: no note
    assert _plain_python_search_note(["search", "random"]) is None


def test_a_model_path_with_a_colon_is_evaluated(tmp_path, capsys):
    """The search note read every player as a spec: a model's path with a colon raised a traceback."""
    import shutil

    import tressette_env

    folder = tmp_path / "run-12:30"
    folder.mkdir()
    shutil.copy(Path(tressette_env.__file__).parent / "models" / "ppo_v0.npz", folder / "ppo_v0.npz")
    assert main(["eval", str(folder / "ppo_v0.npz"), "random", "--deals", "2", "--no-progress"]) == 0


@pytest.mark.parametrize(("typed", "why"), [("q\n", "quit"), ("", "end of input")])
def test_eval_with_a_person_who_quits_stops_without_a_traceback(typed, why, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["eval", "human", "heuristic", "--deals", "2"]) == 1
    err = capsys.readouterr().err
    assert f"tressette eval: stopped at the table ({why}); no result (--journal FILE" in err
    assert "Traceback" not in err


def test_eval_stopped_by_ctrl_c_says_where_its_journal_is(tmp_path, capsys, monkeypatch):
    from tressette_env.evaluation import round_robin

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(round_robin, "round_robin", interrupted)
    journal = tmp_path / "j.jsonl"
    argv = ["eval", "heuristic", "random", "--deals", "2", "--journal", str(journal)]
    assert main(argv) == 130
    assert f"tressette eval: interrupted; the boards finished are in {journal}: the same command resumes" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("width", ["0", "-1", "nan"])
def test_eval_refuses_a_ci_width_that_is_not_positive(width, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["eval", "heuristic", "random", "--deals", "2", "--ci-width", width])
    assert stopped.value.code == 2
    assert f"--ci-width {width}: a width in points greater than 0 (default 1)" in capsys.readouterr().err


def test_eval_makes_the_folders_of_json_and_png_before_it_plays_and_refuses_a_folder(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "new" / "deeper"
    argv = ["eval", "heuristic", "random", "--deals", "2", "--workers", "1", "--no-progress"]
    assert main([*argv, "--json", str(out / "r.json"), "--png", str(tmp_path / "pics" / "r.png")]) == 0
    assert json.loads((out / "r.json").read_text())["boards"] == 2 and (tmp_path / "pics" / "r.png").stat().st_size > 0
    capsys.readouterr()
    (tmp_path / "afile").write_text("")
    for option, path, words in [
        ("--json", out, "a folder; give the name of a file to write"),
        ("--png", tmp_path / "afile" / "r.png", "cannot make its folder"),
        ("--png", tmp_path / "r.txt", "the file's name ends in .png"),  # was a traceback after the evaluation
    ]:
        with pytest.raises(SystemExit) as stopped:
            main([*argv, option, str(path)])
        out, err = capsys.readouterr()
        assert stopped.value.code == 2 and f"{option} {path}: {words}" in err
        assert "heuristic vs random" not in out  # refused before a board was played


@pytest.mark.parametrize("command", ["eval", "play"])
def test_players_given_twice_with_two_numbers_is_refused(command, capsys):
    argv = [command, *(["heuristic", "random"] if command == "eval" else []), "--game", "tressette_a_perdere"]
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--players", "4", "--rule", "players=4", "--rule", "players=5"])
    assert stopped.value.code == 2
    assert "--players 4 and --rule players=5: give the number of players once" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--opponents", "random", "random", "random", "random"],
         "--opponents: tressette has 3 other agents here; got 4 player specs (at most one each"),
        (["play", "--partner", "random", "--opponents", "random", "heuristic", "random"],
         "--opponents: tressette has 2 other agents here besides --partner; got 3 player specs"),
        (["play", "--game", "tressette_in_due", "--opponents", "random", "heuristic"],
         "--opponents: tressette_in_due has 1 other agent here; got 2"),
        (["play", "--game", "tressette_in_due", "--partner", "random"],  # (said so before the count: a regression)
         "--partner is the four-seat game's; the other games take --opponents"),
    ],
)  # fmt: skip
def test_play_refuses_more_opponents_than_other_agents(argv, words, capsys):
    """Extra --opponents were dropped without a word (five specs for the four-seat game's three other agents)."""
    assert words in usage_error(argv, capsys)


def test_exploit_names_the_player_the_user_gave_not_train_s_opponents(capsys):
    line = usage_error(["exploit", "heurstic"], capsys)
    assert line.startswith("tressette exploit: error: PLAYER heurstic: unknown player 'heurstic'; the players are")
    assert "opponents" not in line and "self" not in line


def test_serve_refuses_a_host_this_machine_cannot_listen_on_before_it_starts(capsys):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    line = usage_error(["serve", "--host", "8.8.8.8", "--port", "0"], capsys)
    assert line == "tressette serve: error: --host 8.8.8.8: this machine cannot listen on it (8.8.8.8: Cannot assign " \
                   "requested address)"  # fmt: skip
    assert "no address of that name" in usage_error(["serve", "--host", "no such host.invalid", "--port", "0"], capsys)


def test_an_evaluation_s_error_starts_a_line_of_its_own_after_the_progress_bar(capsys):
    """The bar was left open: the error was glued to it (``0/4 [00:00<?, ?board/s]tressette eval: error: ...``)."""
    pytest.importorskip("tqdm")
    code = main(["eval", "--bot", "ghost=/no/such/program", "ghost", "heuristic", "--deals", "4", "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"(^|\n)tressette eval: error: bot ghost: cannot start", err), err
