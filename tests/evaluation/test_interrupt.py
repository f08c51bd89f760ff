"""Ctrl-C during a parallel evaluation: it stops at once, the workers end, no worker prints a traceback."""

import os
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
        # Each decision takes 20 ms; the first board's first decision in a worker sends Ctrl-C to
        # the whole process group, as a terminal does (the parent and both workers).
        def act(self, view, legal, rng):
            time.sleep(0.02)
            if os.getpid() != PARENT and not os.path.exists(FLAG):
                open(FLAG, "w").close()
                os.killpg(os.getpgrp(), signal.SIGINT)
            return super().act(view, legal, rng)

    PARENT, FLAG = os.getpid(), sys.argv[1]
    signal.signal(signal.SIGINT, signal.default_int_handler)  # started from a test: SIGINT may be ignored
    try:
        duplicate(Slow(), Slow(), boards=400, seed=0, workers=2, progress=False)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", flush=True)
    """
)


def test_ctrl_c_stops_a_parallel_evaluation_at_once_without_worker_tracebacks(tmp_path):
    script = tmp_path / "interrupted.py"
    script.write_text(SCRIPT)
    # Its own session: the Ctrl-C it sends reaches its processes, not pytest's. 400 boards of 20 ms
    # decisions take minutes; a worker that went on to its next chunk would run into the timeout.
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "sent")],
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
    )
    assert (tmp_path / "sent").exists()
    assert done.returncode == 130, done.stderr[-2000:]
    assert done.stdout == "interrupted\n"
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr[-2000:]
