"""Collection rules for the whole repository.

``--doctest-modules`` (see ``[tool.pytest.ini_options]``) imports every module of the package to
collect its doctests. A module that imports an optional dependency that is not installed (the
training modules need torch and sb3-contrib: the ``train`` extra) is not collected, and the run
says so at its end; any other import error still fails the collection.
"""

from __future__ import annotations

import importlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent / "tressette_env"
OPTIONAL = frozenset(
    {
        "torch", "stable_baselines3", "sb3_contrib", "tensorboard", "matplotlib", "tqdm", "rich", "ray", "pyspiel",
        "starlette", "uvicorn", "websockets",
    }
)  # fmt: skip
"""Top-level modules of the extras (``train``, ``eval``, ``rllib``, ``openspiel``, ``web``): missing, they skip a doctest module instead of failing."""

_skipped: dict[str, str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path)
    if path.suffix != ".py" or not path.is_relative_to(PACKAGE):
        return None
    name = _module_name(path)
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing in OPTIONAL:
            _skipped[str(path.relative_to(PACKAGE.parent))] = missing
            return True
    return None  # any other failure is reported by the doctest collection itself


def pytest_terminal_summary(terminalreporter):
    if _skipped:
        terminalreporter.section("doctest modules not collected (optional dependency not installed)")
        for path, missing in sorted(_skipped.items()):
            terminalreporter.write_line(f"{path}: needs {missing}")
