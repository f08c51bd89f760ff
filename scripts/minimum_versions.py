"""The lowest versions that pyproject.toml allows, as a pip constraints file.

Every requirement of ``[project] dependencies`` and of each extra in ``[project.optional-dependencies]``
must have a lower bound (``>=X``); a package named in several places must have the same bound in each.
Prints ``name==X`` lines, which ``.ci/run`` installs (``pip install -c``) in a second virtual environment
to prove those bounds::

    python scripts/minimum_versions.py > .ci/minimum-versions.txt
    python scripts/minimum_versions.py --check .ci/minimum-versions.txt      # exit 1 if it drifted
    python scripts/minimum_versions.py --installed .ci/minimum-versions.txt  # exit 1 unless installed
    python scripts/minimum_versions.py --installed .ci/minimum-versions.txt --some  # those that are

Standard library only; reading pyproject.toml needs ``tomllib`` (Python 3.11 or newer), ``--installed`` does not.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
HEADER = "# The lowest versions pyproject.toml allows; written by scripts/minimum_versions.py, do not edit by hand.\n"
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*?)\s*(;.*)?$")


OWN_ENVIRONMENT = frozenset({"rllib", "openspiel", "web"})
"""Extras that ``.ci/run`` installs in an environment of their own, at their latest versions: ray pins
its own gymnasium (1.2.2 with ray 2.60), which the lowest versions of the others (gymnasium 1.1.0) cannot
share; open_spiel is a large wheel that only its own run needs; the web table's run (a browser) tries the
web extra's latest versions and then its lowest. Their lower bounds still need ``>=X``; they are not in the
constraints file."""


def lower_bounds(pyproject: Path = PYPROJECT) -> dict[str, str]:
    """``{normalized name: lowest version}`` for every requirement of the project and of its extras (but ``OWN_ENVIRONMENT``)."""
    import tomllib  # here: --installed runs on Python 3.10 too

    project = tomllib.loads(pyproject.read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for name, extra in project.get("optional-dependencies", {}).items():
        if name in OWN_ENVIRONMENT:
            for requirement in extra:  # a lower bound all the same
                if ">=" not in requirement:
                    raise ValueError(f"{requirement!r} needs exactly one lower bound (>=X) in pyproject.toml")
            continue
        requirements += extra
    bounds: dict[str, str] = {}
    for requirement in requirements:
        match = _REQUIREMENT.match(requirement)
        if not match:
            raise ValueError(f"cannot read the requirement {requirement!r}")
        name = re.sub(r"[-_.]+", "-", match[1]).lower()
        lows = [spec[2:].strip() for spec in match[3].split(",") if spec.strip().startswith(">=")]
        if len(lows) != 1:
            raise ValueError(f"{requirement!r} needs exactly one lower bound (>=X) in pyproject.toml")
        if bounds.setdefault(name, lows[0]) != lows[0]:
            raise ValueError(f"{name} has two lower bounds in pyproject.toml: {bounds[name]} and {lows[0]}")
    return bounds


def constraints(pyproject: Path = PYPROJECT) -> str:
    """The constraints file's text: a header, then ``name==version`` lines sorted by name."""
    return HEADER + "".join(f"{name}=={version}\n" for name, version in sorted(lower_bounds(pyproject).items()))


def not_installed(constraints_file: Path, require_all: bool = True) -> list[str]:
    """The pins of ``constraints_file`` that this environment does not satisfy exactly, as sentences.

    With ``require_all`` false, a package that is not installed at all is no problem (an install of
    some extras only); one installed at another version still is.
    """
    problems = []
    for line in constraints_file.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, version = line.partition("==")
        try:
            installed = metadata.version(name.strip())
        except metadata.PackageNotFoundError:
            if require_all:
                problems.append(f"{name.strip()} is not installed (wanted {version.strip()})")
            continue
        if installed != version.strip():
            problems.append(f"{name.strip()} {installed} is installed, not {version.strip()}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", type=Path, metavar="FILE", help="compare FILE with pyproject.toml instead of printing"
    )
    parser.add_argument(
        "--installed", type=Path, metavar="FILE", help="check that this environment has exactly FILE's versions"
    )
    parser.add_argument(
        "--some", action="store_true", help="with --installed: a package that is not installed at all is no problem"
    )
    args = parser.parse_args(argv)
    if args.installed is not None:
        problems = not_installed(args.installed, require_all=not args.some)
        for problem in problems:
            print(f"{args.installed}: {problem}", file=sys.stderr)
        if not problems:
            print(f"every version of {args.installed} is installed")
        return 1 if problems else 0
    text = constraints()
    if args.check is None:
        sys.stdout.write(text)
        return 0
    if args.check.read_text() != text:
        print(f"{args.check} does not match pyproject.toml's lower bounds; rewrite it with:", file=sys.stderr)
        print(f"  python scripts/minimum_versions.py > {args.check}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
