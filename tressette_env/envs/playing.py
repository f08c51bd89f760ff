"""What an agent's action does to the game, and what a finished hand reports: shared by every environment.

- ``action_id``: checks that an action is an integer id in range (a clear error otherwise).
- ``take_action``: applies a legal action, or the ``illegal_action`` rule to an illegal one
  (``"renuncio"``: the hand is lost 11-0 with a ``RenuncioWarning``; ``"raise"``: an error, nothing changes).
- ``hand_info``: the info every agent receives when a hand ends (``Game.hand_info`` and how it ended).
- ``check_flag``: an on/off setting (``history``, ``dense_reward``), checked to be a bool.
- ``check_seed``: a ``reset`` seed, checked (a non-negative Python or NumPy integer, or None).
- ``keywords_of``, ``check_keywords``: a single-learner environment's keywords, its own and the rule switches (an
  unknown one named).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..engine.actions import NUM_ACTIONS, action_to_string, actions_of
from ..engine.game import IllegalActionError, apply, renuncio
from ..engine.state import GameState, PublicState
from ..engine.switches import did_you_mean, switch_names
from ..messages import shown


class RenuncioWarning(UserWarning):
    """An agent played an illegal action and its team lost the hand (``illegal_action="renuncio"``)."""


class UnmaskedPolicyWarning(UserWarning):
    """The learner of a single-learner environment made a renuncio in ``UNMASKED_HANDS`` hands in a row."""


UNMASKED_HANDS = 10
"""Hands in a row lost to the learner's illegal actions before ``UnmaskedPolicyWarning`` (once per environment)."""
UNMASKED_ADVICE = (
    "a policy that does not read the action mask loses every hand (a renuncio): train with a masked "
    "algorithm (sb3-contrib's MaskablePPO reads env.action_masks(); tressette train uses it) and "
    "evaluate with sb3_contrib.common.maskable.evaluation.evaluate_policy, not stable_baselines3's"
)


PETTINGZOO_PROBE = "options"
"""The one reset option that is ignored: PettingZoo's ``api_test`` and ``parallel_test`` reset
with ``options={"options": 1}`` to check that ``reset`` takes the argument."""


def check_seed(seed: object) -> int | None:
    """A ``reset`` seed as a Python int (or None): a non-negative Python or NumPy integer.

    NumPy integers (``np.int64(5)``, what ``rng.integers`` returns) are taken as their value;
    a bool is refused, since ``seed=True`` would silently play as seed 1.

    Raises:
        TypeError: the seed is a bool or not an integer.
        ValueError: the seed is negative.

    >>> check_seed(np.int64(5)), check_seed(None)
    (5, None)
    >>> check_seed(True)
    Traceback (most recent call last):
    ...
    TypeError: seed is None or a non-negative integer (int or NumPy integer); got True (bool)
    """
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"seed is None or a non-negative integer (int or NumPy integer); got {shown(seed)} ({type(seed).__name__})"
        )
    if seed < 0:
        raise ValueError(f"seed is None or a non-negative integer; got {shown(int(seed))}")
    return int(seed)


def no_agent_error(agents: Any, agent: Any) -> ValueError:
    """The error for a name that is not one of an environment's ``agents`` (its spaces, ``AECEnv``'s or ``ParallelEnv``'s)."""
    return ValueError(f"agents are {list(agents)}; got {shown(agent)}")


def check_flag(name: str, value: object) -> bool:
    """An environment's on/off setting (``history``, ``dense_reward``): True or False, nothing else.

    Raises:
        TypeError: ``value`` is not a bool (``"yes"`` or ``1`` would silently mean True).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} is True or False; got {shown(value)} ({type(value).__name__})")
    return bool(value)


def reset_options(options: object, allowed: tuple[str, ...]) -> dict:
    """``reset``'s ``options``, checked: None or a dict whose keys are among ``allowed``.

    Raises:
        TypeError: ``options`` is not a dict.
        ValueError: a key is not among ``allowed`` (a typo such as ``"hand"`` must not play a
            random deal); the one exception is PettingZoo's probe key ``PETTINGZOO_PROBE``.
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"reset options are a dict with keys among {list(allowed)}; got {type(options).__name__}")
    unknown = [key for key in options if key not in allowed and key != PETTINGZOO_PROBE]
    if unknown:
        raise ValueError(f"unknown reset option(s) {unknown}; the options are {list(allowed)}")
    return options


class RenderModeError(ValueError, TypeError):
    """A ``render_mode`` the environment does not have.

    A ``ValueError``, and a ``TypeError`` too: stable-baselines3's ``make_vec_env`` asks every
    environment it makes by id for ``render_mode="rgb_array"`` and tries again without it on a
    ``TypeError``.
    """


def check_render_mode(render_mode: object, modes: list[str]) -> None:
    """Raise ``RenderModeError`` unless ``render_mode`` is None or one of ``modes``."""
    if render_mode is not None and render_mode not in modes:
        raise RenderModeError(f"render_mode={shown(render_mode)} is not supported: None or one of {modes}")


def action_id(action: Any, num_actions: int = NUM_ACTIONS) -> int:
    """The int action id of ``action`` (an int, NumPy integer or 0-d integer array).

    Raises:
        TypeError: it is not an integer.
        ValueError: it is outside 0..num_actions-1 (the message names the value, cut to 60 characters).
    """
    if type(action) is not int:
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            action = action.item()
        elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(
                f"an action is an integer id 0..{num_actions - 1}; got {shown(action)} ({type(action).__name__})"
            )
        action = int(action)
    if not 0 <= action < num_actions:
        raise ValueError(f"action {shown(action)} is out of range: action ids are 0..{num_actions - 1}")
    return action


def take_action(
    game: GameState, action: int, legal: int, who: str, stacklevel: int = 3
) -> tuple[GameState, dict | None]:
    """The game after ``who`` takes ``action``; ``legal`` is the legal action mask of this position.

    Returns the new state and, for a renuncio, what happened (for the infos). ``stacklevel`` is
    the ``RenuncioWarning``'s (3: the caller's caller; one more for each frame between).

    Raises:
        IllegalActionError: the action is illegal and the rules say ``illegal_action="raise"``.
    """
    if legal >> action & 1:
        return apply(game, action), None
    legal_ids = actions_of(legal)
    what = f"{who} took illegal action {action} ({action_to_string(action)}); legal: {legal_ids}"
    rules = game.public.rules
    if rules.illegal_action == "raise":
        raise IllegalActionError(what)
    warnings.warn(f"renuncio: {what}; {rules.game.renuncio_words(game.public)}", RenuncioWarning, stacklevel=stacklevel)
    return renuncio(game), {"agent": who, "action": action, "legal_actions": legal_ids}


def hand_info(p: PublicState, penalty: dict | None, agent_of_seat: tuple[str, ...]) -> dict[str, Any]:
    """The info of a finished hand: its number, scores by side, and how it ended if not by play."""
    info = p.rules.game.hand_info(p)
    result = p.result
    if result.renuncio is not None:
        info["renuncio"] = penalty
    if result.called_out is not None:
        info["called_out"] = agent_of_seat[result.called_out]
    return info


def keywords_of(env_type: type) -> list[str]:
    """The keywords ``env_type(...)`` takes besides the rule switches: its ``__init__``'s and those it passes on.

    The ``__init__`` of each class along the MRO that defines one, in order, until one takes no ``**`` to pass on;
    less ``env_type._not_keywords`` (those a subclass sets itself: ``SingleSeatEnv``'s ``game`` and ``agent``).
    """
    names: list[str] = []
    for cls in env_type.__mro__:
        if "__init__" not in vars(cls) or cls is object:
            continue
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]  # (less self)
        names += [p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in names]
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return [name for name in names if name not in getattr(env_type, "_not_keywords", ())]


def check_keywords(env_type: type, keywords: dict, rules_type: type) -> None:
    """Refuse a keyword that is neither ``env_type.__init__``'s own nor a rule switch of ``rules_type``.

    Raises:
        TypeError: naming the keyword, the closest allowed one, the environment's keywords and the switches
            (``make_switches`` alone would list only the switches: ``oponents=`` for ``opponents=``).
    """
    refuse_unknown_keywords(env_type.__name__, lambda: keywords_of(env_type), keywords, rules_type)


def refuse_unknown_keywords(who: str, own: Callable[[], list[str]], keywords: dict, rules_type: type) -> None:
    """``check_keywords`` for ``who`` (an environment, a vector entry point), whose own keywords ``own()`` lists.

    Raises:
        TypeError: a keyword of ``keywords`` that is not a rule switch of ``rules_type``, named with the closest
            allowed one, ``who``'s keywords and the switches.
    """
    switches = switch_names(rules_type)
    for name in keywords:
        if name not in switches:
            mine = own()
            raise TypeError(
                f"unknown keyword {shown(name)}{did_you_mean(name, mine + list(switches))}: {who} takes "
                f"{', '.join(mine)} and the rule switches {', '.join(switches)}"
            )
