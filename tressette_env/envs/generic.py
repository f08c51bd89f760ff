"""The environments of a game whose catalog entry names no module of its own: made from the entry.

A game of the package has a module (``tressette_in_due_v0``...) with its PettingZoo
docstring; a game registered with ``env_module=None`` (``tressette_env.catalog``) gets the
same three functions made here: ``env`` (PettingZoo's classic wrappers), ``raw_env`` (a
``FamilyEnv`` subclass) and ``parallel_env``. The class is reachable by name from this module
(``raw_env__<game>``), so that its environments pickle wherever the game is registered: a
process that unpickles one must have registered the game too (imported the module that
registers it), as a Gymnasium environment made in a spawned worker must.

Example:
    >>> from tressette_env import catalog
    >>> functions = environments(catalog.entry("tressette_in_due"))
    >>> functions.raw_env.metadata["name"]
    'tressette_in_due_v0'
"""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

from .. import catalog
from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

_PREFIX = "raw_env__"
_MADE: dict[str, SimpleNamespace] = {}


def environments(entry: Any) -> SimpleNamespace:
    """``env``, ``raw_env`` and ``parallel_env`` of the game of ``entry`` (made once per game)."""
    made = _MADE.get(entry.name)
    if made is None:
        raw_env = type(
            f"{_PREFIX}{entry.name}",
            (FamilyEnv,),
            {
                "__doc__": f"The {entry.title} AEC environment without PettingZoo's wrappers.",
                "__module__": __name__,
                "spec_of_game": game_spec(entry.name),
                "metadata": {**FamilyEnv.metadata, "name": entry.env_name},
            },
        )

        def env(render_mode: str | None = None, **rules: Any) -> Any:
            return wrap(raw_env(render_mode=render_mode, **rules))

        env.__doc__ = f"The {entry.title} AEC environment wrapped as PettingZoo's classic environments are."
        made = _MADE[entry.name] = SimpleNamespace(env=env, raw_env=raw_env, parallel_env=parallel_factory(raw_env))
    return made


def _call(name: str, function: str, **kwargs: Any) -> Any:
    return getattr(environments(catalog.entry(name)), function)(**kwargs)


def entry_points(name: str) -> tuple[Any, Any]:
    """The AEC and parallel entry points of PettingZoo's registry for the game ``name``."""
    return functools.partial(_call, name, "env"), functools.partial(_call, name, "parallel_env")


def __getattr__(attribute: str) -> Any:
    """``raw_env__<game>``: the game's environment class (what a pickled environment names)."""
    if attribute.startswith(_PREFIX) and attribute[len(_PREFIX) :] in catalog.names():
        return environments(catalog.entry(attribute[len(_PREFIX) :])).raw_env
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
