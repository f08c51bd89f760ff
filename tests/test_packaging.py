"""pyproject.toml's version bounds and the files that prove them (.ci/minimum-versions.txt, .ci/run)."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("tomllib")  # Python 3.11 or newer; .ci/run's Python 3.10 run skips this file

_spec = importlib.util.spec_from_file_location("minimum_versions", ROOT / "scripts" / "minimum_versions.py")
minimum_versions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(minimum_versions)


def test_the_minimum_versions_file_matches_pyprojects_lower_bounds():
    # If this fails: python scripts/minimum_versions.py > .ci/minimum-versions.txt
    assert (ROOT / ".ci" / "minimum-versions.txt").read_text() == minimum_versions.constraints()


def test_ci_installs_the_minimum_versions_and_runs_the_tests():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "minimum_versions.py --check .ci/minimum-versions.txt" in ci
    assert 'pip install -c .ci/minimum-versions.txt -e ".[dev,train,fast]"' in ci
    assert 'pip install -e ".[dev]"' in ci


def test_the_bounds_that_were_too_low_are_raised():
    bounds = minimum_versions.lower_bounds()
    version = lambda name: tuple(int(part) for part in bounds[name].split("."))  # noqa: E731
    assert version("gymnasium") >= (1, 1)  # gymnasium.vector.AutoresetMode
    assert version("stable-baselines3") >= (2, 6) and version("sb3-contrib") >= (2, 6)  # gymnasium 1.1
    assert version("numpy") >= (2, 0)  # np.bitwise_count
    assert version("pettingzoo") >= (1, 24, 3)
    assert version("tensorboard") >= (2, 12) and version("matplotlib") >= (3, 8, 4)  # NumPy 2
    assert "torch" not in bounds  # CI installs torch==2.13.0 first; pyproject leaves it to stable-baselines3


def test_every_requirement_has_one_lower_bound_and_the_same_everywhere(tmp_path):
    def bounds_of(dependencies, extras):
        pyproject = tmp_path / "pyproject.toml"
        lines = [f"dependencies = {json.dumps(dependencies)}", "[project.optional-dependencies]"]
        lines += [f"{name} = {json.dumps(reqs)}" for name, reqs in extras.items()]
        pyproject.write_text("[project]\n" + "\n".join(lines) + "\n")
        return minimum_versions.lower_bounds(pyproject)

    assert bounds_of(["numpy>=2.0.0,<3", "Foo_Bar[x]>=1.2 ; python_version>'3'"], {"a": ["numpy>=2.0.0"]}) == {
        "numpy": "2.0.0",
        "foo-bar": "1.2",
    }
    with pytest.raises(ValueError, match="needs exactly one lower bound"):
        bounds_of(["numpy"], {})
    with pytest.raises(ValueError, match="two lower bounds"):
        bounds_of(["tqdm>=4.60"], {"eval": ["tqdm>=4.61"]})


def test_installed_check_names_what_differs(tmp_path):
    pins = tmp_path / "pins.txt"
    pins.write_text("# comment\npytest==0.0.1\nno-such-package-xyz==1.0\n")
    problems = minimum_versions.not_installed(pins)
    assert len(problems) == 2
    assert problems[0].startswith("pytest ") and problems[0].endswith("is installed, not 0.0.1")
    assert problems[1] == "no-such-package-xyz is not installed (wanted 1.0)"
    assert minimum_versions.not_installed(pins, require_all=False) == problems[:1]


def test_every_file_the_package_reads_is_in_its_package_data():
    """A wheel (``pip install tressette-env``, not the editable install the tests run) carries only the package's
    modules and ``package-data``: a shipped model or a web page file outside its patterns would be missing there."""
    import tomllib

    package = ROOT / "tressette_env"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    carried = {path for pattern in patterns["tressette_env"] for path in package.glob(pattern) if path.is_file()}
    data = {
        path
        for path in package.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc", ".nbi", ".nbc") and "__pycache__" not in path.parts
    }  # (compiled files: Python's and numba's caches)
    not_read = {package / "models" / "README.md"}  # the models' documentation, for the repository's readers
    assert data - not_read - carried == set(), "add these to [tool.setuptools.package-data] in pyproject.toml"
    assert {package / "models" / f"{name}.npz" for name in ("ppo_v0", "ppo_calabresella_v0")} <= carried
    assert package / "web" / "static" / "index.html" in carried
