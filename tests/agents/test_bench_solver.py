"""benchmarks/bench_solver.py: the search subcommand with another solver core swapped in."""

import json
import sys
import types

import pytest

from tests.helpers import load_script
from tressette_env.agents import solver, solver_core


def test_search_with_another_core_uses_it_and_puts_the_shipped_one_back(tmp_path, monkeypatch, capsys):
    bench = load_script("benchmarks/bench_solver.py")
    calls = []
    counting = types.ModuleType("counting_core")
    counting.__dict__.update(vars(solver_core))

    def tables():
        calls.append(1)
        return solver_core.tables()

    counting.tables = tables
    monkeypatch.setitem(sys.modules, "counting_core", counting)
    out = tmp_path / "timing.json"
    light = "search:samples=1,prior=0,exact_tricks=4,inference=none"  # light enough for plain Python
    args = ["--deals", "1", "--opponent", "random", "--player", light, "--core", "counting_core", "--json", str(out)]
    bench.main_search(args)
    assert len(calls) > 10  # the search solved with the core it was given (the warm-up solve is one or two)
    assert solver.core is solver_core  # and the shipped core is back
    result = json.loads(out.read_text())
    assert result["core"] == "counting_core"
    assert result["decision_s"]["decisions"] > 0
    assert f"| {light} | random | 1 |" in capsys.readouterr().out


def test_help_lists_the_subcommands(monkeypatch, capsys):
    bench = load_script("benchmarks/bench_solver.py")
    monkeypatch.setattr(sys, "argv", ["bench_solver.py", "--help"])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "[solver|search|endings|probes|tails]" in out
    for name in ("search (the search player's", "endings (the solver's", "probes (each", "tails (the slowest"):
        assert name in out
