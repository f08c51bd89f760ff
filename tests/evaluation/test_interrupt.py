"""Ctrl-C during a parallel evaluation: it stops at once, the workers end, no worker prints a traceback."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups (POSIX)")

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, time
    from tressette_env.agents import RandomPlayer
    from tressette_env.evaluation.duplicate import duplicate

    class Slow(RandomPlayer):
        # Each decision sleeps; the first decision in a worker sends Ctrl-C to the whole process group,
        # as a terminal does (the parent and both workers).
        def act(self, view, legal, rng):
            time.sleep(float(os.environ["DECISION_S"]))
            if str(os.getpid()) != os.environ["PARENT_PID"] and not os.path.exists(os.environ["FLAG"]):
                open(os.environ["FLAG"], "w").close()
                os.killpg(os.getpgrp(), signal.SIGINT)
            return super().act(view, legal, rng)

    if __name__ == "__main__":  # (a worker started by forkserver or spawn imports this file)
        os.environ["PARENT_PID"] = str(os.getpid())
        ignored = sys.argv[1] == "ignored"
        # Started from a test, SIGINT may be ignored: Python's Ctrl-C, or ignored as by a script's `cmd &`.
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.default_int_handler)
        try:
            result = duplicate(Slow(), Slow(), boards=int(sys.argv[2]), seed=0, workers=2, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
        print(f"finished {result.boards}", flush=True)
    """
)


def run(tmp_path, mode: str, boards: int, decision_s: float) -> subprocess.CompletedProcess:
    script = tmp_path / "interrupted.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "DECISION_S": str(decision_s), "FLAG": str(tmp_path / "sent")}
    # Its own session: the Ctrl-C it sends reaches its processes, not pytest's.
    return subprocess.run(
        [sys.executable, str(script), mode, str(boards)], capture_output=True, text=True, timeout=120, env=env,
        start_new_session=True,
    )  # fmt: skip


def test_ctrl_c_stops_a_parallel_evaluation_at_once_without_worker_tracebacks(tmp_path):
    # 400 boards of 20 ms decisions take minutes: a worker that went on to its next chunk would run into the timeout.
    done = run(tmp_path, "default", 400, 0.02)
    assert (tmp_path / "sent").exists()
    assert done.returncode == 130, done.stderr[-2000:]
    assert done.stdout == "interrupted\n"
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr[-2000:]


def test_a_process_that_ignores_ctrl_c_plays_on_in_its_workers_too(tmp_path):
    done = run(tmp_path, "ignored", 6, 0.0)  # (a script's `tressette eval ... &`: SIGINT ignored, and inherited)
    assert (tmp_path / "sent").exists()
    assert done.returncode == 0 and done.stdout == "finished 6\n", done.stderr[-2000:]


BOT_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    from tressette_env.agents import RandomPlayer
    from tressette_env.evaluation.duplicate import duplicate
    from tressette_env.protocol.bot import BotPlayer

    def interrupt(started, to_group):
        # once both workers' bots have started (each writes a file; at most 60 s on a loaded machine)
        deadline = time.monotonic() + 60
        while len(os.listdir(started)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(os.getpgrp(), signal.SIGINT) if to_group else os.kill(os.getpid(), signal.SIGINT)

    if __name__ == "__main__":
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # A bot that never answers (its own session: a terminal's Ctrl-C would not reach it); Ctrl-C to the
        # evaluation's process alone (kill -INT) or to its group, once the workers have started their bots.
        mark, to, started = sys.argv[1:4]
        sleeper = "import os, sys, time; open(os.path.join(sys.argv[1], str(os.getpid())), 'w').close(); time.sleep(60)"
        bot = BotPlayer("sleeper", [sys.executable, "-c", sleeper + "  # " + mark, started], timeout=100)
        to_group = to == "group"  # a terminal's Ctrl-C: the parent and every worker
        threading.Thread(target=interrupt, args=(started, to_group), daemon=True).start()
        try:
            duplicate(bot, RandomPlayer(), boards=8, seed=0, workers=2, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
    """
)


@pytest.mark.skipif(shutil.which("pgrep") is None, reason="pgrep finds the bots left")
@pytest.mark.parametrize("to", ["parent", "group"])
def test_ctrl_c_closes_the_workers_bots(to, tmp_path):
    script = tmp_path / "bots.py"
    script.write_text(BOT_SCRIPT)
    mark = f"tressette-test-bot-{os.getpid()}-{to}"
    started = tmp_path / "started"
    started.mkdir()
    try:
        done = subprocess.run([sys.executable, str(script), mark, to, str(started)], capture_output=True, text=True,
                              timeout=120, start_new_session=True)  # fmt: skip
    finally:
        left = subprocess.run(["pgrep", "-f", mark], capture_output=True, text=True).stdout.split()
        for pid in left:  # (a failed run leaves them: end them before the assert)
            os.kill(int(pid), 9)
    assert len(list(started.iterdir())) == 2, done.stderr[-2000:]  # the Ctrl-C came with both bots running
    assert done.stdout == "interrupted\n" and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert not left
