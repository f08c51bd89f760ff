"""One table of the web page: a game, its persons and bots, and each seat's ``view`` message (pure Python).

A ``Table`` holds an episode of a game (a hand, or a match), dealt and played through a
``records.Recorder``, so that a table's episode is a record (``record()``) that ``tressette
replay`` plays again. Its players are one spec per agent: ``"person"`` for a seat a person plays
(``act``), any other a player spec (``agents.registry.make_player``) for a bot (``play_bot``).
The rules are the game's switches by name, read as ``tressette play --rule name=value`` reads
them (``rule_text.game_rules``).

What a person receives is ``message_for(agent)``, the ``view`` message of the web protocol:

| field | what it is |
| --- | --- |
| ``type``, ``version``, ``table`` | ``"view"``, ``"tressette-web/1"``, the table's id |
| ``deal`` | the table's count of hands dealt, 1 first (a ``next`` names it: a second ``next`` for the same hand does nothing) |
| ``you``, ``seat`` | the agent this message is for (None: a spectator) and its own seat this hand (None: it sits out) |
| ``status`` | ``"playing"``, ``"hand_over"`` (a match goes on) or ``"match_over"`` (the episode is over) |
| ``on_turn``, ``your_turn`` | the agent whose decision it is (None when nobody is to act); whether it is ``you`` |
| ``names``, ``seat_names`` | each agent's name (``you``, ``player 1``...), each seat's (``dummy of you``) |
| ``act`` | ``protocol.view.act_message`` of the seat this agent sees: its own, with its legal actions on its turn; when it plays a dummy on turn, the dummy's, and ``own``: its own hand |
| ``hands`` | only for a spectator of a table of bots: every seat's hand (``{"0": [cards]}``) |
| ``log`` | the hand's public actions in the terminal's words (``play``'s ``action_words``): ``{"seat", "text"}``; a face-down action's card untold, for everyone |
| ``last_trick`` | ``{"leader", "cards", "taker"}`` of the last finished trick, or None |
| ``end`` | when the hand is over: ``protocol.view.end_message`` of its own seat, with ``summary`` (``play.hand_over_lines``) and ``review`` (``web.review``) |

Everything in a person's message comes from ``view(state, seat)`` of its own seat (or of the
dummy it plays on turn), the legal actions of that seat and the public record: no hand of another
seat reaches it. Only a spectator of a table without persons sees every hand.

Example:
    >>> table = Table("tressette", {}, ["person", "random", "random", "random"], seed=3)
    >>> while table.on_turn() is not None:
    ...     if table.bot_turn():
    ...         table.play_bot()
    ...     else:
    ...         table.act(0, table.message_for(0)["act"]["legal"][0]["id"])
    >>> message = table.message_for(0)
    >>> message["status"], len(message["end"]["summary"]) > 1, table.record()["game"]
    ('match_over', True, 'tressette')
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from collections.abc import Sequence
from typing import Any

from .. import catalog
from ..agents.base import hand_over
from ..agents.human import action_words
from ..agents.registry import make_player
from ..engine.cards import cards_of
from ..engine.game import legal_actions, new_game, next_hand, view
from ..engine.state import GAME_OVER, HAND_OVER, PLAYING, GameState, SeatView
from ..engine.switches import LISTED, int_bounds, needs_text, switch_kind
from ..engine.tricks import trick_winner
from ..messages import cut, shown
from ..play import agent_names, hand_over_lines
from ..protocol.view import AnswerError, act_message, end_message, read_answer
from ..records import Recorder
from ..rule_text import game_rules

VERSION = "tressette-web/1"
"""The web protocol's version string, in every ``view`` and ``catalog`` message."""
PERSON = "person"
"""The player spec of a seat a person plays."""
WEB_PLAYERS = ("random", "heuristic", "search", "ppo")
"""The bots a page may seat (``ppo`` only in a game with a shipped model); the server may add model files."""
MAX_SWITCHES = 64
"""The most rule switches a request may name."""
NO_REVIEW = {"kind": "none", "reason": "review not available", "plays": []}
NO_REVIEW_ASKED = {"kind": "none", "reason": "this table was opened without reviews", "plays": []}
PENDING = {"kind": "pending", "reason": "the review is being computed: a review message follows", "plays": []}
"""A finished hand's review in a ``view`` sent before it was computed (``Table.message_for(review=False)``)."""


class TableError(ValueError):
    """A bad request to a table: the message says what was wrong and what is allowed; nothing changed."""


# ---------------------------------------------------------------------- the rules and the catalog


def _switch_text(name: str, value: Any) -> str:
    """A switch's JSON value as ``--rule name=value`` writes it (``true``, ``11``, ``match``, ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) < 10**9:
        return str(value)
    if isinstance(value, str) and 0 < len(value) <= 40 and not set(value) & set(",=:"):
        return value
    raise TableError(
        f"rule switch {shown(name)}: {shown(value)} is not a switch's value: true or false, an integer, "
        "or one of its choices (a word)"
    )


def table_rules(game: str, switches: Any) -> Any:
    """The rules record of ``game`` with ``switches`` (JSON values by name), validated as ``tressette play`` does.

    Raises:
        TableError: an unknown game, an unknown switch, a value the switch does not allow, or a
            switch that has no effect with the others (the message names it and what is allowed).
    """
    if not isinstance(game, str) or game not in catalog.names():
        raise TableError(f"unknown game {shown(game)}; the games are: {', '.join(catalog.names())}")
    if not isinstance(switches, dict):
        raise TableError(f'"rules" must be an object of switches by name; got {shown(switches)}')
    if len(switches) > MAX_SWITCHES:
        raise TableError(f"{len(switches)} rule switches: at most {MAX_SWITCHES}")
    items = []
    fields = {f.name: f for f in dataclasses.fields(catalog.entry(game).rules_type())}
    for name, value in switches.items():
        if not name or not name.isidentifier():
            raise TableError(f"rule switch {shown(name)}: not a switch's name; {game}'s are {_switch_names(game)}")
        listed = name in fields and switch_kind(fields[name]) in LISTED  # (the command line's a,b or a:2)
        if listed and value is not None:
            raise TableError(f"rule switch {name}: a list or a mapping, which a table does not set (its default: none)")
        items.append(f"{name}={_switch_text(name, value)}")
    try:
        return game_rules(game, items, option="")
    except (TypeError, ValueError) as error:
        raise TableError(f"{game}'s rules: {cut(str(error), 300)}") from None


def _switch_names(game: str) -> str:
    return ", ".join(f.name for f in dataclasses.fields(catalog.entry(game).rules_type()))


def _switch(field: dataclasses.Field) -> dict | None:
    """A switch as the catalog message lists it, or None for one a page cannot set (a subset, a mapping)."""
    spec = field.metadata.get("switch")
    if spec is None:
        return None
    allowed = spec.allowed
    kind = switch_kind(field)
    out: dict[str, Any] = {"name": field.name, "default": field.default, "needs": needs_text(spec.needs)}
    if kind == "bool":
        out.update(kind="bool", choices=None)
    elif kind in ("int", "int|None"):
        least, most = int_bounds(allowed)
        out.update(kind="int", choices=None, least=least, most=most)  # the page's field bounds
    elif kind == "choice" and all(isinstance(v, str) for v in allowed):
        out.update(kind="choice", choices=list(allowed))
    elif kind == "choice" and all(isinstance(v, int) and not isinstance(v, bool) for v in allowed):
        out.update(kind="int", choices=list(allowed))  # players (3 or 4), the asso di bastoni's value
    else:
        return None
    out["meaning"] = spec.meaning
    return out


def catalog_message(models: Sequence[str] = ()) -> dict:
    """The ``catalog`` message: each game with its switches and agents, and the bots a page may seat.

    ``models``: the names of the model files the server offers as players (besides ``WEB_PLAYERS``).
    """
    games = []
    for e in catalog.entries():
        rules = e.make_rules()
        switches = [s for f in dataclasses.fields(rules) if (s := _switch(f)) is not None]
        games.append(
            {
                "name": e.name,
                "title": e.title,
                "summary": e.summary,
                "agents": rules.game.agents(rules),
                "switches": switches,
                "model": e.model is not None,
            }
        )
    return {"type": "catalog", "version": VERSION, "games": games, "players": [*WEB_PLAYERS, *models]}


# ---------------------------------------------------------------------- the messages


def log_entries(before: GameState, after: GameState, seat: int, action: int) -> list[dict]:
    """What the log says of ``seat``'s ``action`` (``before`` -> ``after``): its words, and the trick it ended.

    A face-down action (one that stays out of the public history) is told without its card, to every seat.
    """
    p, q = before.public, after.public
    hidden = len(q.history) <= len(p.history)
    entries = [{"seat": seat, "text": action_words(p, action, hidden)}]
    if q.tricks_done > p.tricks_done:
        leader, cards, _ = q.tricks()[q.tricks_done - 1]
        last = ", the last" if q.tricks_done == q.table.tricks else ""
        entries.append(
            {"seat": trick_winner(leader, cards, q.table.seats), "text": f"takes trick {q.tricks_done}{last}"}
        )
    return entries


def _last_trick(p: Any) -> dict | None:
    if not p.tricks_done:
        return None
    leader, cards, _ = p.tricks()[p.tricks_done - 1]
    return {"leader": leader, "cards": list(cards), "taker": trick_winner(leader, cards, p.table.seats)}


def _status(p: Any) -> str:
    return "playing" if p.status == PLAYING else "hand_over" if p.status == HAND_OVER else "match_over"


def view_message(
    state: GameState,
    agent: int | None,
    *,
    table_id: str,
    log: Sequence[dict],
    review: dict | None = None,
    deal: int | None = None,
) -> dict:
    """The ``view`` message of ``state`` for ``agent`` (None: a spectator, who sees every hand); the module's table.

    ``log``: the hand's log entries (``log_entries``); ``review``: the finished hand's review for this agent;
    ``deal``: the table's count of hands dealt (None in a replay).
    """
    p = state.public
    g = p.rules.game
    t = p.table
    agents = len(t.seat_of)
    playing = p.status == PLAYING
    on_turn = t.controllers[p.turn] if playing else None
    names = agent_names(agents, -1 if agent is None else agent)
    seat_names = list(g.seat_names(t, names))
    message: dict[str, Any] = {
        "type": "view",
        "version": VERSION,
        "table": table_id,
        "deal": deal,
        "you": agent,
        "seat": None,
        "status": _status(p),
        "on_turn": on_turn,
        "your_turn": agent is not None and on_turn == agent,
        "names": names,
        "seat_names": seat_names,
    }
    if agent is None:
        seat = p.turn if playing else p.first_leader
        message["act"] = act_message(view(state, seat), [])
        message["hands"] = {str(s): cards_of(hand) for s, hand in enumerate(state.hands)}
        own_view = view(state, seat)
    else:
        own = t.seat_of[agent]
        own_view = view(state, own) if own >= 0 else SeatView(-1, 0, p, 0)  # a dealer who sits out sees the table
        message["seat"] = own if own >= 0 else None
        if on_turn == agent and p.turn != own:  # a dummy it plays
            message["act"] = act_message(view(state, p.turn), legal_actions(state))
            message["act"]["own"] = cards_of(own_view.hand)
        else:
            message["act"] = act_message(own_view, legal_actions(state) if on_turn == agent else [])
        if own < 0:
            message["act"]["seat"] = None
    message["log"] = list(log)
    message["last_trick"] = _last_trick(p)
    if not playing:
        end = end_message(own_view)
        if own_view.seat < 0:
            end.update(seat=None, agent=agent)
        lines = hand_over_lines(p, seat_names, names)
        end["summary"] = [line.strip() for line in lines if line.strip()]
        end["review"] = review if review is not None else NO_REVIEW
        message["end"] = end
    return message


# ---------------------------------------------------------------------- the table


class Table:
    """A table of ``game`` (see the module docstring): ``players`` is one spec per agent, ``"person"`` for a person.

    ``rules``: the game's switches by name (or a rules record); ``seed``: the first episode's
    deals (each new episode takes the next seed); ``rng``: the deals' random numbers instead of
    ``random.Random(seed)`` (tests deal chosen cards with it).

    Raises:
        TableError: an unknown game or switch, a bad value, another number of players than the
            game's agents, an unknown player spec, or a model that does not play this game.
    """

    def __init__(
        self,
        game: str,
        rules: Any,
        players: Sequence[str],
        seed: int = 0,
        table_id: str = "t1",
        rng: random.Random | None = None,
        review: bool = True,
    ):
        self.game = game
        if not isinstance(review, bool):
            raise TableError(f'"review" {shown(review)}: true (a review after each hand, the default) or false')
        self.reviewed = review
        if dataclasses.is_dataclass(rules) and getattr(type(rules), "game", None) is not None:
            if game not in catalog.names() or type(rules) is not catalog.entry(game).rules_type():
                raise TableError(f"rules {shown(rules)} are not {shown(game)}'s")
            self.rules = rules  # a rules record (the tests', or a record's)
        else:
            self.rules = table_rules(game, rules)
        g = self.rules.game
        self.agents: int = g.agents(self.rules)
        if isinstance(players, str) or not isinstance(players, Sequence) or len(players) != self.agents:
            raise TableError(
                f'{game} has {self.agents} players: give {self.agents} player specs ("person" or a bot: '
                f"{', '.join(WEB_PLAYERS)}); got {shown(players)}"
            )
        bots: list[Any] = []
        for agent, spec in enumerate(players):
            if not isinstance(spec, str) or not spec.strip():
                raise TableError(
                    f"player {agent}: {shown(spec)} is not a player spec (person, {', '.join(WEB_PLAYERS)})"
                )
            if spec == PERSON:
                bots.append(None)
                continue
            try:
                bot = make_player(spec)
                if hasattr(bot, "check_game"):
                    bot.check_game(self.rules)
            except (TypeError, ValueError, ImportError) as error:
                raise TableError(f"player {agent}: {cut(str(error), 300)}") from None
            if getattr(bot, "name", "") == "human":
                raise TableError(f'player {agent}: a person is "person" here, not {shown(spec)}')
            bots.append(bot)
        self.players: list[str] = list(players)
        self.persons: list[int] = [a for a, spec in enumerate(players) if spec == PERSON]
        self.table_id = table_id
        self.seed = seed
        self._bots = bots
        self._hint_player: Any = None
        self._lock = threading.RLock()
        self._finished: dict | None = None
        self._start(seed, rng)

    # ------------------------------------------------------------------ the episode

    def _start(self, seed: int, rng: random.Random | None = None) -> None:
        """A new episode dealt from ``seed``."""
        self.seed = seed
        self._deals = rng if rng is not None else random.Random(seed)
        self._moves = random.Random(f"{seed}-players")
        self._recorder = Recorder(self.game, self.rules, seed, list(self.players))
        self._open(new_game(self.rules, self._deals))

    def _open(self, state: GameState) -> None:
        """A hand just dealt: recorded, its log and review emptied, its deal number the next."""
        self.deal_number = getattr(self, "deal_number", 0) + 1
        self.state = state
        self._recorder.open_hand(state)
        self._steps: list[tuple[GameState, int]] = []  # (state before, action): the review's
        self._log: list[dict] = []
        self._review_of_hand: dict | None = None

    def _apply(self, state: GameState, action: int) -> None:
        """Play ``action`` on ``state`` (the table's own, checked by the caller), recorded and logged."""
        seat = state.public.turn
        after = self._recorder.play(state, action)
        self._steps.append((state, action))
        self._log += log_entries(state, after, seat, action)
        self.state = after
        if after.public.status != PLAYING:
            hand_over(self._bots, after)  # a bot with an end method hears of it, as in tressette play

    def on_turn(self) -> int | None:
        """The agent whose decision it is, or None (the hand or the episode is over)."""
        p = self.state.public
        return p.table.controllers[p.turn] if p.status == PLAYING else None

    def bot_turn(self) -> bool:
        """Whether a bot is on turn."""
        agent = self.on_turn()
        return agent is not None and self._bots[agent] is not None

    def play_bot(self) -> None:
        """The bot on turn plays one action (it may think a while: the app calls this in a worker thread).

        The table is not held while the bot thinks; if it changed meanwhile the action is dropped.
        """
        with self._lock:
            state = self.state
            agent = self.on_turn()
            if agent is None or self._bots[agent] is None:
                raise TableError("no bot is on turn")
            seed = self._moves.random()
        p = state.public
        legal = legal_actions(state)
        action = self._bots[agent].act(view(state, p.turn), legal, random.Random(seed))
        if action not in legal:  # a package player never does this; a model file might
            action = legal[0]
        with self._lock:
            if self.state is state:
                self._apply(state, action)

    def legal(self, agent: int) -> list[dict]:
        """The legal actions of ``agent``'s decision, ``{"id", "name"}``; TableError when it is not its turn."""
        with self._lock:
            state = self._decision(agent)
            p = state.public
            return [{"id": a, "name": p.rules.game.action_label(p, a)} for a in legal_actions(state)]

    def _decision(self, agent: Any) -> GameState:
        """The state if ``agent`` (a person's) is to decide now, else TableError saying who is."""
        if isinstance(agent, bool) or not isinstance(agent, int) or not 0 <= agent < self.agents:
            raise TableError(f"agent {shown(agent)}: the agents are 0 to {self.agents - 1}")
        if self._bots[agent] is not None:
            raise TableError(f"agent {agent} is a bot ({self.players[agent]}), not a person's seat")
        on_turn = self.on_turn()
        if on_turn is None:
            raise TableError('the hand is over: send {"type": "next"} for the next hand')
        if on_turn != agent:
            who = "a bot" if self._bots[on_turn] is not None else "a person"
            raise TableError(f"not your turn: player {on_turn} ({who}) is on turn")
        return self.state

    def act(self, agent: int, action: Any) -> None:
        """``agent`` plays ``action``: a legal action's id or its name (any case).

        Raises:
            TableError: not a person's seat, not its turn, the hand over, or not a legal action
                (the message lists the legal ones); nothing changes then.
        """
        with self._lock:
            legal = self.legal(agent)
            try:
                chosen = read_answer(json.dumps({"action": action}), legal)
            except (AnswerError, TypeError, ValueError) as error:
                raise TableError(str(error)) from None
            self._apply(self.state, chosen)

    def hint(self, agent: int) -> dict:
        """``{"id", "name"}``: what the heuristic would play for ``agent``'s decision, from its view."""
        with self._lock:
            state = self._decision(agent)
            seed = f"{self.seed}-hint-{state.public.hand_number}-{len(self._steps)}"
        if self._hint_player is None:
            self._hint_player = make_player("heuristic")
        p = state.public
        action = self._hint_player.act(view(state, p.turn), legal_actions(state), random.Random(seed))
        return {"id": action, "name": p.rules.game.action_label(p, action)}

    def next_hand(self, deal: int | None = None) -> bool:
        """After a hand: the match's next hand, or a new episode (the next seed) when the episode is over.

        ``deal``: the ``deal`` number of the finished hand the sender saw; when another hand has been
        dealt since (two people asked at once), nothing is done. Returns whether a hand was dealt.
        """
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
            raise TableError(f'"deal" {shown(deal)}: the deal number of the finished hand (a view\'s "deal")')
        with self._lock:
            if deal is not None and not 1 <= deal <= self.deal_number:  # (a deal before this one: asked already)
                raise TableError(f'"deal" {shown(deal)}: no such deal; this table\'s deals are 1 to {self.deal_number}')
            if deal is not None and deal != self.deal_number:
                return False
            p = self.state.public
            if p.status == PLAYING:
                raise TableError("the hand is not over: the next hand is dealt after it")
            if p.status == HAND_OVER:
                self._open(next_hand(self.state, self._deals))
                return True
            self._finished = self._recorder.finish(self.state)
            self._start(self.seed + 1)
            return True

    def record(self) -> dict:
        """The record of the finished episode (``tressette replay`` plays it); TableError before one is over."""
        with self._lock:
            if self.state.public.status == GAME_OVER:
                return self._recorder.finish(self.state)
            if self._finished is not None:
                return self._finished
            raise TableError("no episode of this table is over yet")

    # ------------------------------------------------------------------ the messages

    def message_for(self, agent: int | None, review: bool = True) -> dict:
        """The ``view`` message for ``agent`` (None: a spectator, only at a table without persons).

        ``review=False``: a finished hand's review is left for ``review_message`` (its ``review`` is
        ``PENDING``), so that the view after the last card goes out at once (a review takes 0.2 s to 2 s).
        """
        with self._lock:
            self._check_agent(agent)
            state, log, deal = self.state, list(self._log), self.deal_number
            if state.public.status == PLAYING:
                hand_review = None
            elif review or self._review_of_hand is not None or not self.reviewed:
                hand_review = self._review(agent)
            else:
                hand_review = PENDING
        return view_message(state, agent, table_id=self.table_id, log=log, review=hand_review, deal=deal)

    def review_message(self, agent: int | None) -> dict | None:
        """The ``review`` message of the finished hand for ``agent`` (None while a hand is being played).

        ``{"type": "review", "version", "table", "hand_number", "review"}``: what a ``view`` sent with
        ``review=False`` left pending.
        """
        with self._lock:
            self._check_agent(agent)
            p = self.state.public
            if p.status == PLAYING:
                return None
            hand_review = self._review(agent)
        return {"type": "review", "version": VERSION, "table": self.table_id, "hand_number": p.hand_number,
                "review": hand_review}  # fmt: skip

    def _check_agent(self, agent: int | None) -> None:
        if agent is None:
            if self.persons:
                raise TableError("a table with persons has no spectators: every hand is someone's")
        elif isinstance(agent, bool) or not isinstance(agent, int) or not 0 <= agent < self.agents:
            raise TableError(f"agent {shown(agent)}: the agents are 0 to {self.agents - 1}")

    def _review(self, agent: int | None) -> dict:
        """The finished hand's review as ``agent`` may see it (None: a spectator, every agent's decisions).

        The hand is reviewed once (``review.review_hand``, the persons' decisions); each person then sees
        the double-dummy plays and its own heuristic ones (``review.for_agent``).
        """
        try:
            from .review import ReviewError, for_agent, review_hand
        except ImportError:
            return NO_REVIEW
        if not self.reviewed:
            return NO_REVIEW_ASKED
        if self._review_of_hand is None:
            try:
                self._review_of_hand = review_hand(self._steps, self.state, self.persons or None)
            except ReviewError as error:
                self._review_of_hand = {"kind": "none", "reason": f"no review: {error}", "plays": []}
        return self._review_of_hand if agent is None else for_agent(self._review_of_hand, agent)
