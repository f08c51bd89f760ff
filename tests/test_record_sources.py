"""Game records from the environments (``record=FILE``) and from ``tressette eval --record DIR``; ``replay --gif``."""

import json
import random
import subprocess
import sys
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils import seeding

from tests.games.family import MODULES, RULE_SETS
from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.agents.solver_core import COMPILED
from tressette_env.cli import main, record_file_name
from tressette_env.engine import card_code, cards_of, new_game
from tressette_env.envs.playing import RenuncioWarning
from tressette_env.envs.spec import game_spec
from tressette_env.evaluation.duplicate import duplicate
from tressette_env.records import RENUNCIO, RecordError, read_records, replay


def play_aec(env, seed, rng, episodes=1):
    """Play ``episodes`` episodes with random legal actions; each episode's [seat, action] steps."""
    played = []
    for k in range(episodes):
        env.reset(seed=seed if k == 0 else None)
        steps = []
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = rng.choice(obs["action_mask"].nonzero()[0].tolist())
            steps.append([env.unwrapped.game.public.turn, action])
            env.step(action)
        played.append(steps)
    return played


def steps_of(record):
    return [step[:2] for hand in record["hands"] for step in hand["actions"]]


@pytest.mark.parametrize("game", list(MODULES))
def test_every_aec_episode_is_recorded_as_played_and_replays(game, tmp_path):
    path = tmp_path / "r.jsonl"
    rules = RULE_SETS[game][-1]
    env = MODULES[game].env(record=path, **rules)
    played = play_aec(env, 5, random.Random(5), episodes=3)
    records = list(read_records(path))
    assert len(records) == 3 and [steps_of(r) for r in records] == played
    for record in records:
        named: list[str] = []  # each step's name is the game's, for the state before it (in due's "volta Ad")
        state = replay(
            record, on_step=lambda b, a, _, named=named: named.append(b.public.rules.game.action_label(b.public, a))
        )
        assert named == [step[2] for hand in record["hands"] for step in hand["actions"]]
        assert record["game"] == game and record["players"] == env.possible_agents
        assert list(state.public.rules.game.returns(state.public)) == record["returns"]
    # the same seed gives the same records
    again = tmp_path / "again.jsonl"
    play_aec(MODULES[game].env(record=again, **rules), 5, random.Random(5), episodes=3)
    assert list(read_records(again)) == records


@pytest.mark.parametrize("game", list(MODULES))
def test_without_record_the_deals_are_unchanged(game, tmp_path):
    env = MODULES[game].raw_env()
    env.reset(seed=9)
    np_random, _ = seeding.np_random(9)
    expected = new_game(env.rules, random.Random(int(np_random.integers(2**63))))
    assert env.game.dealt == expected.dealt and env.game.public.dealer == expected.public.dealer
    recorded = MODULES[game].raw_env(record=tmp_path / "r.jsonl")
    recorded.reset(seed=9)
    first = [[card_code(c) for c in cards_of(h)] for h in recorded.game.dealt]
    play_aec(recorded, 9, random.Random(0))
    assert next(read_records(tmp_path / "r.jsonl"))["hands"][0]["dealt"] == first


def test_a_chosen_deal_is_kept_in_the_record(tmp_path):
    path = tmp_path / "r.jsonl"
    hands = [list(range(k * 10, k * 10 + 10)) for k in range(4)]
    env = MODULES["tressette"].env(record=path)
    env.reset(seed=1, options={"hands": hands, "dealer": 2})
    rng = random.Random(0)
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else rng.choice(obs["action_mask"].nonzero()[0].tolist()))
    (record,) = read_records(path)
    assert record["deal"] == {"hands": hands, "dealer": 2}
    assert record["hands"][0]["dealer"] == 2
    assert replay(record).public.result == env.unwrapped.game.public.result


@pytest.mark.parametrize("game", list(MODULES))
def test_a_parallel_episode_cut_by_max_cycles_is_recorded_as_truncated(game, tmp_path):
    path = tmp_path / "r.jsonl"
    env = MODULES[game].parallel_env(record=path, max_cycles=7)
    observations, _ = env.reset(seed=2)
    rng = random.Random(2)
    while env.agents:
        actions = {a: rng.choice(o["action_mask"].nonzero()[0].tolist()) for a, o in observations.items()}
        observations, *_ = env.step(actions)
    (record,) = read_records(path)
    assert record["truncated"] is True and "returns" not in record and len(steps_of(record)) == 7
    replay(record)
    del record["truncated"]
    with pytest.raises(RecordError, match="ends in the middle of a hand"):
        replay(record)


@pytest.mark.parametrize("game", list(MODULES))
def test_the_single_seat_environment_records_every_seat_and_its_renuncios(game, tmp_path):
    path = tmp_path / "r.jsonl"
    players = {"partner": "random", "opponents": "random"} if game == "tressette" else {"others": "random"}
    env = gym.make(game_spec(game).gym_id, record=path, **players)
    env.action_space.seed(0)
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RenuncioWarning)
        for k in range(4):
            env.reset(seed=k)
            while True:
                masks = env.unwrapped.action_masks()
                action = env.action_space.sample() if k == 3 else int(masks.nonzero()[0][0])
                _, reward, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            results.append((reward, env.unwrapped.game.public.result))
    records = list(read_records(path))
    assert len(records) == 4
    for record, (reward, result) in zip(records, results, strict=True):
        assert (
            record["players"].count("learner") == 1 and record["players"].count("random") == len(record["players"]) - 1
        )
        assert record["returns"][record["players"].index("learner")] == reward
        assert replay(record).public.result == result
    renuncios = [s for h in records[3]["hands"] for s in h["actions"] if s[3:] == [RENUNCIO]]
    assert renuncios  # unmasked actions: the hand ends with the learner's renuncio
    unmarked = json.loads(json.dumps(records[3]))
    for hand in unmarked["hands"]:
        hand["actions"] = [step[:3] for step in hand["actions"]]
    with pytest.raises(RecordError, match="is not legal"):
        replay(unmarked)


@pytest.mark.parametrize("bad, error, message", [
    (3, TypeError, "record is None or the path of a JSON-lines file"),
    ("{tmp}/no/such/r.jsonl", ValueError, "does not exist"),
    ("{tmp}", ValueError, "is a folder"),
])  # fmt: skip
def test_a_bad_record_path_is_refused_when_the_environment_is_built(bad, error, message, tmp_path):
    bad = bad.format(tmp=tmp_path) if isinstance(bad, str) else bad
    for make in (MODULES["tressette"].env, MODULES["tressette"].parallel_env,
                 lambda **kw: gym.make("tressette_env/Tressette-v0", **kw)):  # fmt: skip
        with pytest.raises(error, match=message):
            make(record=bad)


@pytest.mark.parametrize("game", ["tressette", "tressette_col_morto", "tressette_a_perdere", "calabresella"])
def test_duplicate_records_every_play_and_each_replays_to_its_score(game):
    rules = game_spec(game).make_rules()
    kept = duplicate(HeuristicPlayer(), RandomPlayer(), boards=3, seed=4, rules=rules, workers=1, progress=False,
                     names=("heuristic", "random"), record=True)  # fmt: skip
    plain = duplicate(HeuristicPlayer(), RandomPlayer(), boards=3, seed=4, rules=rules, workers=1, progress=False)
    assert kept.mean_points_diff == plain.mean_points_diff and plain.game_records() == []
    records = kept.game_records()
    plays = len(kept.records[0].plays)
    assert len(records) == 3 * plays
    for board in kept.records:
        for k, play in enumerate(board.plays):
            record = play.game_record
            assert record["board"] == board.board and record["lineup"].endswith(str(k))
            state = replay(record)
            points = state.public.rules.game.hand_points(state.public)
            a = record["players"].index("heuristic")
            assert play.a_points == (points[a],)
    two = duplicate(HeuristicPlayer(), RandomPlayer(), boards=3, seed=4, rules=rules, workers=2, progress=False,
                    names=("heuristic", "random"), record=True)  # fmt: skip
    assert two.game_records() == records


@pytest.mark.skipif(
    not COMPILED,
    reason="its third player searches: minutes in plain Python (no numba); the runs with the fast extra play it",
)
def test_eval_record_writes_a_file_per_pair_that_replay_reads(tmp_path, capsys):
    folder = tmp_path / "games"
    argv = ["eval", "heuristic", "random", "search:samples=2", "--deals", "2", "--no-progress", "--workers", "1"]
    assert main([*argv, "--record", str(folder)]) == 0
    printed = capsys.readouterr().out
    names = [record_file_name(1, "heuristic", "random"), record_file_name(2, "heuristic", "search:samples=2"),
             record_file_name(3, "random", "search:samples=2")]  # fmt: skip
    assert (
        sorted(p.name for p in folder.iterdir()) == sorted(names)
        and names[1] == "2-heuristic-vs-search_samples=2.jsonl"
    )
    for name in names:
        records = list(read_records(folder / name))
        assert len(records) == 4 and f"{folder / name} (4 episodes" in printed
        assert {r["lineup"] for r in records} == {"team0", "team1"} and all(replay(r) for r in records)
    assert main(["replay", str(folder / names[0]), "--episode", "4"]) == 0
    last = capsys.readouterr().out
    assert "the result is the record's" in last and "holds more" not in last
    assert main(["replay", str(folder / names[0])]) == 0  # the first of four: it says there are more
    assert f"(record 1 of {folder / names[0]}, which holds more: --episode 2 for the next)" in capsys.readouterr().out


def test_eval_record_refuses_a_file(tmp_path, capsys):
    path = tmp_path / "file"
    path.write_text("")
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "heuristic", "random", "--deals", "2", "--record", str(path)])
    assert exit_.value.code == 2 and "--record" in capsys.readouterr().err and path.read_text() == ""


def test_replay_gif_writes_a_frame_per_action(tmp_path, capsys):
    pil = pytest.importorskip("PIL.Image")
    path = tmp_path / "r.jsonl"
    play_aec(MODULES["calabresella"].env(record=path), 3, random.Random(3))
    (record,) = read_records(path)
    gif = tmp_path / "hand.gif"
    assert main(["replay", str(path), "--gif", str(gif), "--ms", "50"]) == 0
    image = pil.open(gif)
    assert image.n_frames == len(steps_of(record)) and image.size == (960, 640)
    assert f"{gif}: {image.n_frames} frames" in capsys.readouterr().out
    for bad, words in [(tmp_path / "hand.txt", "the file's name ends in .gif"), (tmp_path, "a folder")]:
        with pytest.raises(SystemExit) as stopped:  # before a frame is drawn (they were tracebacks after)
            main(["replay", str(path), "--gif", str(bad)])
        assert stopped.value.code == 2 and f"--gif {bad}: {words}" in capsys.readouterr().err
    assert main(["replay", str(path), "--gif", str(tmp_path / "new" / "h.gif")]) == 0  # its folder is made


def test_the_batched_environment_says_it_writes_no_records(tmp_path):
    with pytest.raises(TypeError, match="the batched environment writes no game records"):
        gym.make_vec("tressette_env/Tressette-v0", num_envs=2, vectorization_mode="vector_entry_point",
                     record=tmp_path / "r.jsonl")  # fmt: skip


def test_replay_into_a_closed_pipe_stops_without_a_traceback(tmp_path):
    """``tressette replay FILE | head`` printed a BrokenPipeError traceback; now it stops quietly (status 1)."""
    assert main(["eval", "heuristic", "random", "--deals", "2", "--no-progress", "--record", str(tmp_path)]) == 0
    record = next(tmp_path.glob("*.jsonl"))
    command = [sys.executable, "-m", "tressette_env.cli", "replay", str(record)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.readline()
        process.stdout.close()  # the reader goes away, as head does
        error = process.stderr.read().decode()
        assert process.wait(timeout=60) == 1
    assert "Traceback" not in error and "BrokenPipeError" not in error, error


def test_replay_says_nothing_of_a_damaged_line_after_the_record(tmp_path, capsys):
    assert main(["eval", "heuristic", "random", "--deals", "2", "--no-progress", "--record", str(tmp_path)]) == 0
    record = next(tmp_path.glob("*.jsonl"))
    first = record.read_text().splitlines()[0]
    path = tmp_path / "one.jsonl"
    path.write_text(first + "\nnot a record\n")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0  # the first record plays; --episode 2 would name the damage
    assert "holds more" not in capsys.readouterr().out


def test_a_broken_pipe_that_is_not_standard_output_is_its_own_error(monkeypatch):
    """Only a reader of our output going away is stopped quietly; a worker's broken pipe stays an error."""
    import tressette_env.cli as cli

    def broken(args):
        raise BrokenPipeError("a worker process went away")

    monkeypatch.setattr(cli, "_replay", broken)
    with pytest.raises(BrokenPipeError, match="a worker process went away"):
        main(["replay", "whatever.jsonl"])


def test_a_step_is_named_as_the_play_screen_names_it_in_the_record_and_its_replay(tmp_path, capsys):
    """In due's packets: a packet turned up is ``volta Ad`` (it was recorded and replayed as ``chiama Ad``)."""
    folder = tmp_path / "packets"
    argv = ["eval", "--game", "tressette_in_due", "--rule", "deal=packets", "heuristic", "random", "--deals", "2"]
    assert main([*argv, "--no-progress", "--workers", "1", "--record", str(folder)]) == 0
    path = folder / record_file_name(1, "heuristic", "random")
    names = [step[2] for record in read_records(path) for hand in record["hands"] for step in hand["actions"]]
    assert any(name.startswith("volta ") for name in names) and not any(name.startswith("chiama") for name in names)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": volta " in out and ": chiama " not in out


def test_a_record_written_when_no_soloist_was_null_still_replays(tmp_path):
    """Before 2026-12-07 a hand where all passed recorded its soloist (declarer) as null; it is -1 now."""
    from tressette_env.engine import legal_actions
    from tressette_env.engine.actions import PASS
    from tressette_env.engine.state import PLAYING
    from tressette_env.games.calabresella import CalabresellaRules
    from tressette_env.records import Recorder

    recorder = Recorder("calabresella", CalabresellaRules(), seed=0, players=["a", "b", "c"])
    state = recorder.start()
    while state.public.status == PLAYING and PASS in legal_actions(state):  # every player passes
        state = recorder.play(state, PASS)
    record = recorder.finish(state)
    assert record["hands"][0]["result"]["contract"] == "all passed"
    assert record["hands"][0]["result"]["soloist"] == -1 and replay(record)
    old = json.loads(json.dumps(record))
    old["hands"][0]["result"]["soloist"] = None  # as an older version wrote it
    assert replay(old).public.result == state.public.result
    old["hands"][0]["result"]["soloist"] = 2
    with pytest.raises(RecordError, match="the replay's result differs from the record's"):
        replay(old)
