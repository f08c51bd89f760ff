"""The benchmarks' and examples' scripts refuse bad numbers and names with one line (they were tracebacks)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # the scripts import this checkout's package, installed or not


@pytest.mark.parametrize(
    ("script", "argv", "words"),
    [
        ("benchmarks/bench_family_batched.py", ["--games", "tressette"], "the games with a family batched engine are"),
        ("benchmarks/bench_family_batched.py", ["--seconds", "0"], "--seconds is a number > 0"),
        ("benchmarks/bench_compiled_observations.py", ["--rounds", "0"], "--rounds and --deals are ints >= 1"),
        ("benchmarks/bench_in_due_others.py", ["--rounds", "0"], "--rounds is an int >= 1 and --seconds a number > 0"),
        ("benchmarks/bench_train.py", ["--steps", "0"], "--steps and --repeats ints >= 1"),
        ("benchmarks/bench_train.py", ["--repeats", "0"], "--steps and --repeats ints >= 1"),
        ("benchmarks/bench_train.py", ["--others", "foo"], "--others foo: heuristic or random"),
        ("examples/train_batched.py", ["--num-deals", "0"], "--num-deals is an int >= 1; got 0"),
        ("examples/train_batched.py", ["--partner", "foo"], "--partner is self or heuristic; got foo"),
    ],
)
def test_a_bad_argument_is_one_line_and_status_2(script, argv, words):
    done = subprocess.run(
        [sys.executable, str(ROOT / script), *argv], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr[-1500:]


def test_bench_numpy_idioms_takes_help():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks/bench_numpy_idioms.py"), "--help"],
                          capture_output=True, text=True, timeout=120, env=ENV)  # fmt: skip
    assert done.returncode == 0 and "usage: bench_numpy_idioms.py" in done.stdout and "| idiom" not in done.stdout
