"""The ``tressette`` command line.

    tressette eval heuristic random --deals 1000 --seed 0 --json out.json
    tressette eval random heuristic search:samples=10 --deals 200 --png results.png
    tressette eval heuristic random --deals 10 --record games/

    tressette train --total-timesteps 200000 --opponents heuristic
    tressette train --opponents self --total-timesteps 2000000 --tensorboard
    tressette train --game tressette_col_morto --rule players=2 --opponents heuristic self

    tressette play --game calabresella --seed 7 --record games.jsonl
    tressette replay games.jsonl
    tressette serve            # the web table on http://127.0.0.1:8000/ (the web extra)

Subcommands: ``eval`` (duplicate evaluation of two players, or a round robin of more),
``play`` (play a game yourself in the terminal), ``serve`` (the web table in the browser:
``pip install -e ".[web]"``), ``replay`` (step through a recorded game) and
``train`` (MaskablePPO on one seat of a game; needs the training extras:
``pip install -e ".[train]"`` from a clone, or ``pip install "tressette-env[train]"``).

Exit status: 0 done; 2 a mistake on the command line (argparse's usage errors, a bad value, an
unknown player, a missing package, a record file that does not exist), found before any work; 1
a model file that cannot be read (damaged, or not a model), with one line ``tressette <command>:
error: <file>: <problem>``, or a record file that cannot be read or replayed (damaged, not
UTF-8, past the bounds of ``tressette_env.records``), with one line ``tressette replay: error:
<file>, line <n>: <problem>``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import json
import os
import random
import re
import select
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .agents.human import HumanPlayer
from .agents.registry import MODEL_SUFFIXES, PLAYERS, make_player, parse_spec, shown_spec
from .catalog import names as game_names
from .engine.switches import switch_names
from .envs.spec import game_spec
from .learned.mlp import ModelFileError
from .rule_text import game_rules, rule_switches

EVAL_HINT = 'pip install -e ".[eval]" (from a clone) or pip install "tressette-env[eval]"'
RULE_HELP = "a rule switch name=value (repeatable; a list switch a,b, a mapping a:2,b:4)"


SEARCHING = ("search", "search_v1")
"""The players whose every decision runs the double-dummy solver (``agents.solver_core``)."""


def _plain_python_search_note(specs: Sequence[str]) -> str | None:
    """What to install when a player of ``specs`` searches without numba (the ``fast`` extra); None otherwise."""
    from .agents.numba_switch import numba_module

    names = set()
    for spec in specs:
        try:
            names.add(parse_spec(spec)[0])
        except ValueError:  # a model's path with a colon: not a searching player
            continue
    searching = [f"{name}'s double-dummy solver" for name in SEARCHING if name in names]
    if not searching or numba_module() is not None:
        return None
    off = os.environ.get("TRESSETTE_NUMBA") == "0"
    why = "TRESSETTE_NUMBA=0 turns numba off" if off else 'numba is not installed: pip install -e ".[fast]"'
    runs = "runs" if len(searching) == 1 else "run"
    return f"{' and '.join(searching)} {runs} in plain Python, about fifty times slower than compiled ({why})"


def _rule_items(args: argparse.Namespace) -> list[str]:
    """``--rule``'s switches, with ``--players N`` as ``players=N`` (a ValueError for a game without that switch)."""
    items = list(args.rule)
    if args.player_count is not None:
        if "players" not in switch_names(type(game_spec(args.game).make_rules())):
            raise ValueError(f"--players: {args.game} has a fixed number of players (no players switch)")
        given = [item for item in items if item.partition("=")[0].strip() == "players"]
        other = [item for item in given if item.partition("=")[2].strip() != str(args.player_count)]
        if other:
            raise ValueError(f"--players {args.player_count} and --rule {other[0]}: give the number of players once")
        items.append(f"players={args.player_count}")
    return items


def _at_least(least: int, why: str = "") -> Callable[[str], int]:
    """An argparse ``type``: an integer >= ``least``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"must be an integer >= {least}{why}; got {text!r}")
        return value

    return parse


def _eval(args: argparse.Namespace) -> int:
    from .evaluation import plot_results, results_table
    from .evaluation.round_robin import round_robin

    try:
        rules = game_rules(args.game, _rule_items(args))
        from .evaluation.duplicate import check_duplicate

        check_duplicate(rules)
        bots = _bots(args.bot, args.bot_timeout, args.bot_fallback)
        players = {shown_spec(spec): bots[spec] if spec in bots else make_player(spec) for spec in args.players}
        unused = [name for name in bots if name not in players]
        if unused:
            raise ValueError(
                f"--bot {unused[0]}=...: name it among the players too, e.g. `tressette eval {unused[0]} random`"
            )
        if any(isinstance(player, HumanPlayer) for player in players.values()):
            args.workers, args.no_progress = 1, True  # a person types in this process's terminal
        _check_games(rules, [*players.values()], bots)
    except ModelFileError as error:
        _file_error(args.parser, error)
    except (TypeError, ValueError, ImportError) as error:
        args.parser.error(str(error))
    if len(players) < 2:
        args.parser.error("give at least two different players, e.g. `tressette eval heuristic random`")
    if not args.ci_width > 0:  # (NaN too)
        args.parser.error(f"--ci-width {args.ci_width:g}: a width in points greater than 0 (default 1)")
    note = _plain_python_search_note(list(players))
    if note:
        print(f"tressette eval: note: {note}", file=sys.stderr)
    if args.png:
        try:
            import matplotlib  # noqa: F401  (checked before the evaluation, used after it)
        except ImportError:
            args.parser.error(f"--png needs matplotlib: {EVAL_HINT}")
    _output_file(args.parser, "--json", args.json)  # checked before the boards are played
    _output_file(args.parser, "--png", args.png, ".png")
    start = time.perf_counter()
    if args.record is not None:
        if args.record.exists() and not args.record.is_dir():
            args.parser.error(
                f"--record {args.record}: not a folder (give a folder for the records, one file per pair)"
            )
        args.record.mkdir(parents=True, exist_ok=True)
    from concurrent.futures import BrokenExecutor

    from .agents.human import QuitGame
    from .evaluation.journal import JournalError
    from .protocol.bot import BotError

    try:
        results = round_robin(players, args.deals, args.seed, rules, args.workers, not args.no_progress,
                              record=args.record is not None, journal=args.journal)  # fmt: skip
    except JournalError as error:
        args.parser.error(f"--journal: {error}")
    except BotError as error:
        again = f" (the boards played are in {args.journal}: the same command resumes)" if args.journal else ""
        print(f"tressette eval: error: {error}{again}", file=sys.stderr)
        return 1
    except (QuitGame, KeyboardInterrupt, BrokenExecutor) as stop:
        # A person at the table typed q (or the input ended), or Ctrl-C: stop with one line (the workers of a
        # parallel evaluation end without a word: evaluation.duplicate._interrupted); or a worker process was
        # ended from outside (a signal sent to it alone, the system out of memory).
        why = (
            "interrupted"
            if isinstance(stop, KeyboardInterrupt)
            else "a worker process ended abruptly (a signal sent to it, or the system out of memory)"
            if isinstance(stop, BrokenExecutor)
            else f"stopped at the table ({stop})"
        )
        kept = (
            f"; the boards finished are in {args.journal}: the same command resumes"
            if args.journal
            else "; no result (--journal FILE keeps the boards finished, and the same command resumes)"
        )
        print(f"tressette eval: {why}{kept}", file=sys.stderr)
        return 130 if isinstance(stop, KeyboardInterrupt) else 1
    finally:
        for bot in bots.values():
            bot.close()
    seconds = time.perf_counter() - start
    print(results_table(results))
    game = "" if args.game == "tressette" else f"{args.game}, "
    seats = rules.game.agents(rules)
    board = (
        f"each deal played {seats} times, A in each seat in turn and B in the others"
        if rules.game.lineup(rules) == "field"
        else "each deal played twice, seats swapped"
    )
    print(f"\n{game}{args.deals} boards per pair ({board}), seed {args.seed}, {seconds:.1f} s")
    for r in results:
        a, b = r.players
        ms = [1000 * t for t in r.seconds_per_decision or (0.0, 0.0)]
        need = r.boards_for(args.ci_width)
        unit = "point" if args.ci_width == 1 else "points"
        needed = f"; a 95% CI {args.ci_width:g} {unit} wide needs about {need} boards" if need else ""
        print(f"{a} vs {b}: {ms[0]:.2f} ms a decision for {a}, {ms[1]:.2f} ms for {b}{needed}")
        for name, fell, decided in zip(r.players, r.fallbacks or (0, 0), r.decisions or (0, 0), strict=True):
            if fell:
                print(f"{name}: {fell} of {decided} decisions played by the fallback {args.bot_fallback}")
    if args.json:
        if len(results) == 1:
            out = results[0].to_json(timing=True)
        else:
            out = {
                "players": list(players),
                "deals": args.deals,
                "seed": args.seed,
                "pairs": [r.to_json(timing=True) for r in results],
            }
        out["seconds"] = seconds
        Path(args.json).write_text(json.dumps(out, indent=2))
    if args.png:
        plot_results(results, args.png)
    if args.record is not None:
        for k, result in enumerate(results, start=1):
            path = args.record / record_file_name(k, *result.players)
            path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in result.game_records()))
            print(f"records: {path} ({len(result.game_records())} episodes; tressette replay {path} --episode N)")
    return 0


def _bots(items: Sequence[str], timeout: float, fallback: str | None = None) -> dict:
    """``--bot NAME=COMMAND`` options as players (``protocol.bot.BotPlayer``), by name; ``--bot-fallback``'s player."""
    from .protocol.bot import BotPlayer

    if fallback is not None:
        if not items:
            raise ValueError("--bot-fallback: give it with --bot NAME=COMMAND (it plays the decisions a bot fails)")
        if fallback == "human" or not fallback.strip():
            raise ValueError(
                f"--bot-fallback {_shown(fallback)}: a player spec ({', '.join(p for p in PLAYERS if p != 'human')})"
            )
        try:
            fallback_player = make_player(fallback)
        except (TypeError, ValueError, ImportError) as error:
            raise ValueError(f"--bot-fallback: {error}") from None
    else:
        fallback_player = None
    bots = {}
    for item in items:
        name, eq, command = item.partition("=")
        name = name.strip()
        if not eq or not name or not command.strip():
            raise ValueError(
                f"--bot {_shown(item)}: write NAME=COMMAND, e.g. --bot mine='node examples/bots/random_legal.js'"
            )
        if name in bots or name in PLAYERS:
            raise ValueError(
                f"--bot {_shown(name)}: a name given once, and not one of the players ({', '.join(PLAYERS)})"
            )
        bots[name] = BotPlayer(name, command, timeout, fallback_player)
    return bots


def _bot(args: argparse.Namespace) -> int:
    from .protocol.serve import serve

    try:
        player = make_player(args.player)
    except ModelFileError as error:
        _file_error(args.parser, error)
    except (TypeError, ValueError, ImportError) as error:
        args.parser.error(str(error))
    if isinstance(player, HumanPlayer):
        args.parser.error("human reads the terminal, which is the protocol's here: seat a person with tressette play")
    serve(player, sys.stdin, sys.stdout, random.Random(args.seed), args.decision_limit)
    return 0


def record_file_name(pair: int, a: str, b: str) -> str:
    """The file of ``tressette eval --record DIR`` for pair number ``pair``: ``1-heuristic-vs-random.jsonl``."""
    safe = [re.sub(r"[^A-Za-z0-9._=]+", "_", name).strip("_") or "player" for name in (a, b)]
    return f"{pair}-{safe[0]}-vs-{safe[1]}.jsonl"


def _shown(value: object) -> str:
    """A default as a user would type it: ``heuristic random``, ``0.0909``, ``on``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " ".join(map(str, value))
    if isinstance(value, float) and len(repr(value)) > 8:
        return f"{value:.3g}"
    return str(value)


_METAVARS = {"net_arch": "WIDTH", "partner": "PLAYER", "imitate": "PLAYER", "run_dir": "PATH", "resume": "PATH"}


def _train_options(
    parser: argparse.ArgumentParser, skip: Sequence[str] = (), defaults: dict | None = None, helps: dict | None = None
) -> None:
    """One option per ``TrainConfig`` field, with the field's docstring as help (no training import needed).

    ``skip``: fields without an option; ``defaults``: other defaults than the field's; ``helps``: other help texts.
    """
    import ast
    import inspect

    from .training.train import TrainConfig

    docs = {}
    source = ast.parse(inspect.getsource(TrainConfig))
    body = source.body[0].body
    for node, after in zip(body, body[1:] + [None], strict=True):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.target.id] = " ".join(after.value.value.split())
    defaults, helps = defaults or {}, helps or {}
    for f in dataclasses.fields(TrainConfig):
        if f.name in skip:
            continue
        flag = "--" + f.name.replace("_", "-")
        base = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        default = defaults.get(f.name, base)
        # The docstrings are plain words; drop any reST literal quotes that slip in all the same.
        help_text = helps.get(f.name, docs.get(f.name, "")).replace("``", "")
        if default is not None:
            help_text += f" (default: {_shown(default)})"
        help_text = help_text.strip().replace("%", "%%")
        if isinstance(base, bool):
            action = parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
            action.help = help_text  # set afterwards: Python 3.10's BooleanOptionalAction appends a Python repr
        elif isinstance(base, tuple):
            kind = type(base[0]) if base else str
            metavar = _METAVARS.get(f.name, "PLAYER" if kind is str else "N")
            parser.add_argument(flag, nargs="+", type=kind, default=default, metavar=metavar, help=help_text)
        elif isinstance(base, dict):
            parser.add_argument(
                "--rule",
                dest="rules",
                action="append",
                default=[],
                metavar="NAME=VALUE",
                help=f"a rule switch of the game, repeatable (a list switch a,b; a mapping a:2,b:4; default: its standard "
                f"rules): {_game_switches()}",
            )
        elif f.name == "game":
            parser.add_argument(flag, choices=game_names(), default=default, metavar="GAME", help=help_text)
        else:
            kind = {int: int, float: float}.get(type(base), str)
            metavar = _METAVARS.get(f.name, {int: "N", float: "X"}.get(kind, "NAME"))
            parser.add_argument(flag, type=kind, default=default, metavar=metavar, help=help_text)


def _game_switches() -> str:
    """Each game's rule switches, for ``--rule``'s help: ``tressette: target_score, ...; tressette_in_due: ...``."""
    from .envs.spec import game_spec

    games = []
    for game in game_names():
        names = [f.name for f in dataclasses.fields(game_spec(game).make_rules())]
        games.append(f"{game}: {', '.join(names)}")
    return "; ".join(games)


def _file_error(parser: argparse.ArgumentParser, error: ModelFileError) -> None:
    """A model file that cannot be read: one line and status 1 (a usage mistake is status 2)."""
    parser.exit(1, f"{parser.prog}: error: {error}\n")


def _train(args: argparse.Namespace) -> int:
    from .training.train import TrainConfig, train

    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig)}
    try:
        from .envs.spec import game_spec

        values["rules"] = rule_switches(values["rules"], type(game_spec(values["game"]).make_rules()))
        for name in ("net_arch", "eval_against", "opponents"):
            values[name] = tuple(values[name])
        config = TrainConfig(**values)
        config.check()
    except ModelFileError as error:  # a damaged --resume checkpoint, or model file as a player
        _file_error(args.parser, error)
    except (ValueError, ImportError) as error:
        args.parser.error(str(error))
    try:
        train(config)
    except ModelFileError as error:  # a checkpoint that stable-baselines3 could not load: before any work
        _file_error(args.parser, error)
    return 0


def _exploit(args: argparse.Namespace) -> int:
    """``tressette exploit``."""
    from .envs.spec import game_spec
    from .training.exploit import SET_BY_EXPLOIT, exploit, exploit_config
    from .training.train import TrainConfig

    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig) if f.name not in SET_BY_EXPLOIT}
    try:
        values["rules"] = rule_switches(values["rules"], type(game_spec(values["game"]).make_rules()))
        values["net_arch"] = tuple(values["net_arch"])
        game, team_play = values.pop("game"), values.pop("team_play")
        values = {
            k: v for k, v in values.items() if v is not None or k in ("imitate", "run_name")
        }  # unset: the run's own
        config = exploit_config(args.player, game, team_play, **values)
        config.check()
    except ModelFileError as error:  # a model file as the player
        _file_error(args.parser, error)
    except (ValueError, ImportError) as error:
        message = str(error)
        if message.startswith("opponents: "):  # the run's opponents are PLAYER: name what the user wrote
            message = f"PLAYER {args.player}: {message.removeprefix('opponents: ')}"
            message = message.replace(" (or self: the learner itself)", "")  # (train's; exploit refuses self)
        args.parser.error(message)
    exploit(config)
    return 0


def _check_games(rules: Any, players: list, bots: dict) -> None:
    """``ValueError`` for a player that cannot play this game (a model trained for another, search in a perdere).

    The bots' fallback players are checked too; a bot itself says what it plays by its answers.
    """
    fallbacks = {bot.fallback for bot in bots.values()} - {None}
    for player in [*players, *fallbacks]:
        if hasattr(player, "check_game"):
            player.check_game(rules)


def _play(args: argparse.Namespace) -> int:
    """``tressette play``."""
    from .agents.human import HumanPlayer
    from .play import play_episode

    try:
        rules = game_rules(args.game, _rule_items(args))
        agents = rules.game.agents(rules)
        if args.seat >= agents:
            raise ValueError(f"--seat {args.seat}: {args.game} has agents 0 to {agents - 1}")
        if args.partner is not None and args.game != "tressette":
            raise ValueError("--partner is the four-seat game's; the other games take --opponents")
        others = agents - 1 - (args.partner is not None)  # (--partner names the four-seat partner's)
        if len(args.opponents) > others:
            raise ValueError(
                f"--opponents: {args.game} has {others} other agent{'s' if others != 1 else ''} here"
                + (" besides --partner" if args.partner is not None else "")
                + f"; got {len(args.opponents)} player specs (at most one each; fewer are given to them in turn)"
            )
        specs = [args.opponents[k % len(args.opponents)] for k in range(agents - 1)]
        if args.partner is not None:
            partner = (args.seat + 2) % 4  # an agent; the specs list every agent but the person's
            specs[partner - (partner > args.seat)] = args.partner
        bots = _bots(args.bot, args.bot_timeout, args.bot_fallback)
        others = [bots[spec] if spec in bots else make_player(spec) for spec in specs]
        _check_games(rules, others, bots)
        hint = make_player(args.hint)
        try:
            _check_games(rules, [hint], {})
        except ValueError as error:
            raise ValueError(f"--hint {args.hint}: {error}") from None
    except ModelFileError as error:
        _file_error(args.parser, error)
    except (TypeError, ValueError, ImportError) as error:
        args.parser.error(str(error))
    from .protocol.bot import BotError

    _output_file(args.parser, "--record", args.record)  # before the deal: a hand played is not lost at the end
    seed = random.SystemRandom().randrange(2**31) if args.seed is None else args.seed
    print(f"seed {seed} (--seed {seed} plays this deal again)")
    human = HumanPlayer(hint=hint, confirm=not args.no_confirm)
    try:
        play_episode(args.game, rules, human, others, specs, args.seat, seed, args.record and str(args.record))
    except BotError as error:
        print(f"tressette play: error: {error}", file=sys.stderr)
        return 1
    finally:
        for bot in bots.values():
            bot.close()
    return 0


def _output_file(parser: argparse.ArgumentParser, option: str, path: Path | None, suffix: str = "") -> None:
    """Refuse an output file that could not be written once the work is done (a folder, another kind); make its folder."""
    if path is None:
        return
    if path.is_dir():
        parser.error(f"{option} {path}: a folder; give the name of a file to write")
    if suffix and path.suffix.lower() != suffix:
        parser.error(f"{option} {path}: the file's name ends in {suffix} (it writes that kind of file)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"{option} {path}: cannot make its folder {path.parent}: {error.strerror or error}")


def _record_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """A record file that cannot be read or replayed: one line, ``<file>, line <n>: <problem>``, and status 1."""
    parser.exit(1, f"{parser.prog}: error: {message.replace(chr(10), ' ')}\n")


MAX_GIF_FRAMES = 2000
"""The frames of one ``tressette replay --gif``, at most: about 1.2 GB of palette frames in memory (a hand
of the four-seat game is 40 frames, a long match of a chiamare some 8,000)."""


def _replay(args: argparse.Namespace) -> int:
    """``tressette replay``."""
    from .engine.render import default_names, render_state
    from .records import RecordError, numbered_records, replay

    try:
        with contextlib.closing(numbered_records(args.file)) as records:
            count, found, more = 0, None, False
            for line, record in records:  # a line at a time, up to the episode asked for
                count += 1
                if count == args.episode:
                    found = line, record
                    break
            if found is not None and Path(args.file).is_file():  # (a pipe would wait for its next record)
                try:  # one record more: whether the file holds another (said at the end)
                    more = next(records, None) is not None
                except RecordError:
                    more = False  # a damaged line follows: --episode N would name it, not play it
    except OSError as error:
        args.parser.error(f"{args.file}: {error.strerror}")
    except RecordError as error:
        _record_error(args.parser, str(error))
    if found is None:
        args.parser.error(f"--episode {args.episode}: {args.file} holds {count} record(s)")
    line, record = found
    frames: list = []
    if args.gif is not None:
        _output_file(args.parser, "--gif", args.gif, ".gif")
        # One frame an action: a record with too many is refused before a frame is drawn (numbered_records has
        # checked its hands and their lists of actions, which the replay plays exactly).
        chosen = record["hands"] if args.hand is None else record["hands"][args.hand - 1 : args.hand]
        actions = sum(len(hand["actions"]) for hand in chosen)
        if actions > MAX_GIF_FRAMES:
            _record_error(
                args.parser,
                f"{args.file}, line {line}: the episode has {actions:,} actions, and a gif holds at most "
                f"{MAX_GIF_FRAMES} frames (one per action, about 0.6 MB each in memory): choose one hand with --hand K",
            )
        try:
            import PIL  # noqa: F401  (checked before the replay, used after it)
        except ImportError:
            args.parser.error("--gif needs Pillow: pip install pillow (the eval and train extras include it)")
        from PIL import Image

        from .envs.picture import table_picture

    def show(before, action, state):
        if args.hand is not None and state.public.hand_number + 1 != args.hand:
            return
        if args.gif is not None:
            # a palette image: a third of the memory of the RGB frame (the picture has few colours)
            adaptive = getattr(Image, "Palette", Image).ADAPTIVE  # Pillow before 9.1: Image.ADAPTIVE
            frames.append(Image.fromarray(table_picture(state)).convert("P", palette=adaptive))
            return
        p = before.public
        print(f"\n{default_names(state.public)[p.turn]}: {p.rules.game.action_label(p, action)}")
        print(render_state(state))
        if args.pause:
            input("(Enter) ")

    try:
        state = replay(record, on_step=show)
    except RecordError as error:
        _record_error(args.parser, f"{args.file}, line {line}: {error}")
    if args.hand is not None and args.hand > len(record["hands"]):
        _record_error(
            args.parser, f"{args.file}, line {line}: --hand {args.hand}: the episode has {len(record['hands'])} hand(s)"
        )
    if args.gif is not None:
        if not frames:
            _record_error(args.parser, f"{args.file}, line {line}: the record has no actions, so --gif has no frame")
        # The last frame (the last trick and the score) stays on screen four times as long.
        durations = [args.ms] * (len(frames) - 1) + [4 * args.ms]
        frames[0].save(args.gif, save_all=True, append_images=frames[1:], duration=durations, loop=0)
        print(f"{args.gif}: {len(frames)} frames, one per action")
    if record.get("truncated"):
        print(f"\nreplayed {len(record['hands'])} hand(s) of {record['game']} up to where max_cycles cut the episode")
    else:
        print(f"\nreplayed {len(record['hands'])} hand(s) of {record['game']}: the result is the record's "
              f"(returns {list(state.public.rules.game.returns(state.public))})")  # fmt: skip
    if more:
        print(f"(record {args.episode} of {args.file}, which holds more: --episode {args.episode + 1} for the next)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tressette", description="Tressette for reinforcement learning.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    evaluate = commands.add_parser(
        "eval",
        help="duplicate evaluation: who is stronger, with a 95%% confidence interval",
        description="Play every deal twice with the teams swapping seats; report team A's points minus team B's "
        "per hand with a 95% CI. Two players: one pair; more: a round robin of every pair.",
    )
    evaluate.add_argument(
        "players",
        nargs="+",
        help=f"player specs: {', '.join(PLAYERS)}, with options as name:key=value,...; or a trained model's path "
        f"ending in {' or '.join(MODEL_SUFFIXES)} (a NumPy policy, or an SB3 MaskablePPO model, which needs torch)",
    )
    evaluate.add_argument(
        "--deals",
        type=_at_least(2, " (each pair plays at least 2 boards)"),
        default=1000,
        help="boards per pair, at least 2 (default 1000)",
    )
    evaluate.add_argument(
        "--seed", type=_at_least(0), default=0, help="seed of the deals and the players, an integer >= 0 (default 0)"
    )
    evaluate.add_argument(
        "--game",
        choices=game_names(),
        default="tressette",
        help="the game (default tressette, the four-seat game); its rule switches are --rule's",
    )
    evaluate.add_argument("--rule", action="append", default=[], help=RULE_HELP)
    evaluate.add_argument(
        "--players",
        dest="player_count",
        type=_at_least(2),
        default=None,
        metavar="N",
        help="players at the table, for a game with a players switch (a number it does not allow is refused with "
        "those it does); the same as --rule players=N",
    )
    evaluate.add_argument("--workers", type=_at_least(1), default=None, help="processes (default: every CPU core)")
    evaluate.add_argument("--json", type=Path, default=None, help="write the result as JSON here")
    evaluate.add_argument("--png", type=Path, default=None, help="draw the result as a PNG here (needs matplotlib)")
    evaluate.add_argument(
        "--record", type=Path, default=None, metavar="DIR",
        help="write every play's game record to DIR, a JSON-lines file per pair (see tressette replay)",
    )  # fmt: skip
    evaluate.add_argument("--no-progress", action="store_true", help="no progress bar")
    evaluate.add_argument(
        "--bot", action="append", default=[], metavar="NAME=COMMAND",
        help="seat a program speaking the table protocol (docs/protocol.md) as player NAME: it is started with "
        "COMMAND (no shell) and named among the players (repeatable)",
    )  # fmt: skip
    evaluate.add_argument(
        "--bot-timeout", type=float, default=5.0, metavar="S",
        help="seconds a --bot has for each decision (default 5; its first, and a restarted bot's, include its "
        "start-up); a late, wrong or dead bot stops the evaluation",
    )  # fmt: skip
    evaluate.add_argument(
        "--bot-fallback", default=None, metavar="PLAYER",
        help="a player spec (random, heuristic, ...) that plays the decisions a --bot fails, instead of stopping; "
        "the first failure is written out and the count is reported",
    )  # fmt: skip
    evaluate.add_argument(
        "--journal", type=Path, default=None, metavar="FILE",
        help="append each finished board to FILE (JSON lines); the same command again resumes an interrupted "
        "evaluation from it, playing only the boards it lacks",
    )  # fmt: skip
    evaluate.add_argument(
        "--ci-width", type=float, default=1.0, metavar="W",
        help="print how many boards a 95%% CI W points wide would need, from this result's spread (default 1)",
    )  # fmt: skip
    evaluate.set_defaults(run=_eval, parser=evaluate)
    serving = commands.add_parser(
        "bot",
        help="one of the package's players on stdin and stdout, speaking the table protocol (docs/protocol.md)",
        description='Read act messages (one JSON object a line) on stdin and answer each with {"action": id} '
        'on stdout, as PLAYER plays; a line it cannot read gets {"error": ...}. Ends at the end of the input.',
    )
    serving.add_argument("player", help=f"a player spec: {', '.join(PLAYERS)}, with options, or a model's path")
    serving.add_argument("--seed", type=_at_least(0), default=0, help="seed of the player's random numbers (0)")
    serving.add_argument(
        "--decision-limit", type=float, default=60.0, metavar="S",
        help="seconds a decision may take; a longer one is answered {\"error\": ...} (default 60)",
    )  # fmt: skip
    serving.set_defaults(run=_bot, parser=serving)
    _serve_parser(commands)
    playing = commands.add_parser(
        "play",
        help="play a game yourself in the terminal against the package's players",
        description="Play an episode of a game in the terminal: you are one agent, the package's players the "
        "others. Type an action's number or name (3d, '3d busso', passo, chiamo), ? for a hint, q to stop.",
    )
    playing.add_argument("--game", choices=game_names(), default="tressette", help="the game (default tressette)")
    playing.add_argument("--rule", action="append", default=[], help=RULE_HELP)
    playing.add_argument("--players", dest="player_count", type=_at_least(2), default=None, metavar="N",
                         help="players at the table, for a game with a players switch")  # fmt: skip
    playing.add_argument("--seat", type=_at_least(0), default=0, help="your agent, 0 first (default 0)")
    playing.add_argument("--opponents", nargs="+", default=["heuristic"],
                         help="the other agents' player specs, given to them in turn (default heuristic)")  # fmt: skip
    playing.add_argument("--partner", default=None, help="the four-seat game's partner (default: as --opponents)")
    playing.add_argument(
        "--seed",
        type=_at_least(0),
        default=None,
        help="the deal's seed, an integer >= 0, to play a deal again (default: random)",
    )
    playing.add_argument("--hint", default="heuristic", help="the player whose choice ? shows (default heuristic)")
    playing.add_argument("--no-confirm", action="store_true", help="play an action as soon as it is typed")
    playing.add_argument("--record", type=Path, default=None, help="append the episode to this JSON-lines file")
    playing.add_argument(
        "--bot", action="append", default=[], metavar="NAME=COMMAND",
        help="seat a program speaking the table protocol (docs/protocol.md) as NAME, named in --opponents",
    )  # fmt: skip
    playing.add_argument(
        "--bot-timeout",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds a --bot has a decision (its first includes its start-up)",
    )
    playing.add_argument(
        "--bot-fallback", default=None, metavar="PLAYER", help="a player that plays the decisions a --bot fails"
    )
    playing.set_defaults(run=_play, parser=playing)
    replaying = commands.add_parser(
        "replay",
        help="step through a recorded game (tressette play --record)",
        description="Play a recorded episode again from its seed, showing the table after each action, and check "
        "that it ends as recorded.",
    )
    replaying.add_argument("file", type=Path, help="a JSON-lines file of records")
    replaying.add_argument("--episode", type=_at_least(1), default=1, help="which record of the file, 1 first")
    replaying.add_argument("--pause", action="store_true", help="wait for Enter after each action")
    replaying.add_argument(
        "--gif",
        type=Path,
        default=None,
        metavar="OUT",
        help="write an animation of the episode instead, a frame per action (needs Pillow)",
    )
    replaying.add_argument("--ms", type=_at_least(1), default=700, help="milliseconds per frame of --gif (700)")
    replaying.add_argument(
        "--hand",
        type=_at_least(1),
        default=None,
        metavar="K",
        help=f"show only hand K of the episode, 1 first (a gif of a long match: at most {MAX_GIF_FRAMES} frames)",
    )
    replaying.set_defaults(run=_replay, parser=replaying)
    training = commands.add_parser(
        "train",
        usage="%(prog)s [options]  (tressette train --help lists them)",
        help="train a MaskablePPO player (needs the train extras)",
        description="Train MaskablePPO on one seat of a game (--game: any game of the family) against chosen "
        "opponents, or on every seat of batched deals (--team-play); evaluates on duplicate deals as it goes and ends "
        "with a table and a learning curve.",
    )
    _train_options(training)
    training.set_defaults(run=_train, parser=training)
    _exploit_parser(commands)
    return parser


def _serve_parser(commands: Any) -> None:
    """``tressette serve``: the web table (the ``web`` extra)."""
    serving = commands.add_parser(
        "serve",
        help="the web table: play any game of the family in the browser, watch bots, replay records (web extra)",
        description="Serve the web table (docs/web.md) on HOST:PORT: open http://HOST:PORT/ in a browser. "
        "Needs the web extra: pip install -e '.[web]'. WARNING: it binds to 127.0.0.1, this machine only, by "
        "default; a --host other than a loopback address lets every machine that reaches this one take seats, "
        "start bot tables (each costs CPU) and upload records.",
    )
    serving.add_argument(
        "--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1, this machine only)"
    )
    serving.add_argument("--port", type=_at_least(0), default=8000, help="the port (default 8000; 0: any free port)")
    serving.add_argument("--max-tables", type=_at_least(1), default=64, help="tables open at once (default 64)")
    serving.add_argument(
        "--max-connections", type=_at_least(1), default=256, help="websocket connections at once (default 256)"
    )
    serving.add_argument(
        "--model", action="append", type=Path, default=[], metavar="FILE",
        help="a model file (.npz, or an SB3 .zip) the page may seat as a player, named by its file name (repeatable)",
    )  # fmt: skip
    serving.set_defaults(run=_serve, parser=serving)


def _serve(args: argparse.Namespace) -> int:
    try:
        from .web.app import is_loopback, serve
    except ModuleNotFoundError as error:
        args.parser.error(f"needs the web extra ({error.name} is not installed): pip install -e '.[web]'")
    if args.port > 65535:
        args.parser.error(f"--port {args.port}: a port is 0 to 65535")
    for model in args.model:
        if not model.is_file():
            args.parser.error(f"--model {model}: no such file")
        if not model.name.endswith(MODEL_SUFFIXES):
            args.parser.error(
                f"--model {model}: a model file ends in {' or '.join(MODEL_SUFFIXES)} (a NumPy policy, or an SB3 "
                "MaskablePPO model)"
            )
        try:
            make_player(str(model))  # read once now: a damaged file is refused before the server starts
        except ModelFileError as error:
            _file_error(args.parser, error)
    _check_host(args.parser, args.host)
    if not is_loopback(args.host):
        print(
            f"tressette serve: warning: --host {args.host} is not a loopback address: every machine that reaches "
            "this one can take seats, start bot tables and upload records",
            file=sys.stderr,
        )
    serve(args.host, args.port, args.max_tables, args.max_connections, models=args.model)
    return 0


def _check_host(parser: argparse.ArgumentParser, host: str) -> None:
    """A usage error for a ``--host`` this machine cannot listen on (a name that does not resolve, a remote address).

    Each address it resolves to is bound once on a free port and closed at once; one that binds is enough, as for
    the server (asyncio's ``create_server`` passes over an address that cannot be assigned, an IPv6 ``::1`` where
    IPv6 is off). An empty ``--host`` is every interface, as for the server.
    """
    import socket

    if not host:
        return
    try:
        addresses = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        parser.error(f"--host {host}: no address of that name ({getattr(error, 'strerror', None) or error})")
    problems = []
    for family, kind, proto, _, address in addresses:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(address)
            return
        except OSError as error:
            problems.append(f"{address[0]}: {error.strerror or error}")
    parser.error(f"--host {host}: this machine cannot listen on it ({'; '.join(problems)})")


def _exploit_parser(commands: Any) -> None:
    """``tressette exploit``: ``train``'s options but those the run sets itself, with the exploit run's defaults."""
    from .training.exploit import EXPLOIT_DEFAULTS, SET_BY_EXPLOIT, TEAM_PLAY_DEALS, TEAM_PLAY_PLAYERS

    exploiting = commands.add_parser(
        "exploit",
        usage="%(prog)s PLAYER [options]  (tressette exploit --help lists them)",
        help="train a best response to a frozen player and report its margin: a lower bound of the player's "
        "exploitability (needs the train extras)",
        description="Train MaskablePPO with PLAYER frozen in every other seat (the four-seat game: one team of "
        "each batched deal against PLAYER's team), then play the exploiter against PLAYER on duplicate boards. "
        "The exploiter's margin, with its 95% CI, is a lower bound of what a best response wins against PLAYER "
        "(docs/exploitability.md). The run folder holds train's files and exploit.json.",
    )
    exploiting.add_argument(
        "player",
        metavar="PLAYER",
        help=f"the frozen player: {', '.join(p for p in PLAYERS if p != 'human')}, with options, or a model's path",
    )
    _train_options(
        exploiting,
        skip=SET_BY_EXPLOIT,
        defaults={**EXPLOIT_DEFAULTS, "team_play": None, "n_steps": None, "batch_size": None},
        helps={
            "total_timesteps": "Learner decisions to train the exploiter for (rounded up to whole rollouts: --n-steps "
            "times the environments or the learning seats).",
            "n_steps": f"Steps per environment per rollout (default: {EXPLOIT_DEFAULTS['n_steps']} decisions a seat with "
            "team play, train's 128 on single deals).",
            "batch_size": f"Minibatch size of PPO's update (default: {EXPLOIT_DEFAULTS['batch_size']} with team play, "
            "train's 1024 on single deals).",
            "team_play": f"Batched deals of team play (the four-seat game, against {', '.join(TEAM_PLAY_PLAYERS)}): "
            "one team of each learns against PLAYER's team; 0: single-deal environments (any player); default: "
            f"{TEAM_PLAY_DEALS} where team play can hold PLAYER, 0 otherwise. --n-steps is then decisions per seat, "
            "a multiple of 10",
        },
    )
    exploiting.set_defaults(run=_exploit, parser=exploiting)


def _unrecognized(parser: argparse.ArgumentParser, extras: list[str]) -> str:
    """The error for options ``parser`` does not know, with the closest known one."""
    known = [o for action in parser._actions for o in action.option_strings]
    message = f"unrecognized arguments: {' '.join(extras)}"
    for extra in extras:
        if extra.startswith("-"):
            close = difflib.get_close_matches(extra.partition("=")[0], known, n=1)
            if close:
                return f"{message} (did you mean {close[0]}?)"
    return message


def _intermixed(args: argparse.Namespace, rest: list[str]) -> argparse.Namespace:
    """``args`` with the subcommand's arguments ``rest`` parsed again, its positionals and options in any order."""
    for name, value in vars(args.parser.parse_intermixed_args(rest)).items():
        setattr(args, name, value)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    A mistake in the arguments (a bad value, an unknown player, a missing package) is found
    before any work: like argparse, it prints ``tressette <command>: error: ...`` with that
    command's usage and raises ``SystemExit(2)``. A model file that cannot be read prints one
    line, ``tressette <command>: error: <file>: <problem>``, and raises ``SystemExit(1)``; so
    does a record file that ``tressette replay`` cannot read or replay, with
    ``tressette replay: error: <file>, line <n>: <problem>``.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        # argparse reports a subcommand's unknown options with the top-level usage; say them with the
        # subcommand's, unless they came before the subcommand's name.
        command = argv.index(args.command) if args.command in argv else len(argv)
        after = all(i > command for i, a in enumerate(argv) if a in extras)
        options = extras[: extras.index("--")] if "--" in extras else extras  # after "--" every word is a positional
        if after and not any(e.startswith("-") for e in options):
            # Positionals on both sides of an option (``tressette eval heuristic --deals 10 random``): argparse's
            # first pass takes the first run of them only; the subcommand's intermixed parse takes them all
            # (and errors with its own usage on anything else).
            args = _intermixed(args, argv[command + 1 :])
        else:
            owner = args.parser if after else parser
            owner.error(_unrecognized(owner, extras))
    try:
        return args.run(args)
    except BrokenPipeError:
        if not _stdout_gone():
            raise  # another pipe (a worker process's): its own error
        # The reader of our output went away (``tressette replay FILE | head``): stop without a traceback, and
        # send what is left to flush at exit nowhere (not to a second error).
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
        return 1


def _stdout_gone() -> bool:
    """Whether standard output is a pipe whose reader has gone: its descriptor polls as an error (POLLERR/POLLHUP)."""
    try:
        fd = sys.stdout.fileno()
        poller = select.poll()  # (not on Windows: there the error stays an error)
        poller.register(fd, select.POLLOUT)
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no file descriptor (captured, a notebook), or no poll
        return False


if __name__ == "__main__":
    raise SystemExit(main())
