"""The batched in due heuristic is ``InDueHeuristic``, decision by decision, under every rule set.

A scalar reference (one engine state per deal, made from the batch's deal and dealer) is
stepped with the same actions; at every step the batched action of every deal must be the
scalar player's on that deal's state.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tressette_env.agents.in_due_heuristic import InDueHeuristic
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    action_to_string,
    apply,
    legal_actions,
    legal_actions_mask,
    new_game,
    next_hand,
    renuncio,
    view,
)
from tressette_env.engine.actions import CALL, CALL_OUT, PACKET
from tressette_env.engine.state import PLAY
from tressette_env.games.in_due import SELECT_PACKETS, TURN_PACKETS, InDueRules
from tressette_env.vector.in_due import InDueBatch
from tressette_env.vector.in_due_heuristic import _actions, _read, _Table, heuristic_actions

_U = np.uint64


class Reference:
    """Scalar engine states mirroring every deal of an ``InDueBatch``."""

    def __init__(self, batch: InDueBatch, rules: dict):
        self.batch = batch
        self.rules = InDueRules.make(**rules)
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i))

    def step(self, actions: np.ndarray, active: np.ndarray | None, autoreset: bool = True) -> None:
        for i, state in enumerate(self.states):
            if (active is not None and not active[i]) or state.public.status != PLAYING:
                continue
            action = int(actions[i])
            state = apply(state, action) if legal_actions_mask(state) >> action & 1 else renuncio(state)
            if state.public.status == HAND_OVER:
                state = next_hand(state, **self.batch.deal_of(i))
            elif state.public.status == GAME_OVER and autoreset:
                state = self.fresh(i)
            self.states[i] = state

    def actions(self) -> list[int]:
        player, rng = InDueHeuristic(), random.Random(0)
        return [
            player.act(view(s, s.public.turn), legal_actions(s), rng) if s.public.status == PLAYING else -1
            for s in self.states
        ]


def _bits(columns: np.ndarray) -> np.ndarray:
    """(M, 40) 0/1 columns -> (M,) uint64 card masks."""
    wide = np.zeros((len(columns), 64), dtype=np.uint8)
    wide[:, :40] = columns
    return np.packbits(wide, axis=1, bitorder="little").view("<u8").reshape(-1).astype(_U)


def _read_public(batch: InDueBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
    """The ``_Table`` from the public readers, the observation and the legal masks only."""
    m = len(rows)
    sl = batch.observation.slices
    obs = batch.observe(deals=rows)
    played = obs[:, sl["played"]]
    trick = obs[:, sl["trick"]]
    table = _bits(trick[:, :40] | trick[:, 40:])
    led = np.where(table != 0, np.bitwise_count(table - _U(1)).astype(np.int64), -1)
    hand = batch.hands()[rows, turn]
    masks = batch.legal_masks(bool)[rows]
    phase = batch.phase[rows]
    calls = np.zeros(m, dtype=_U)
    for c in range(40):
        calls |= np.where(masks[:, CALL + c], _U(1 << c), _U(0))
    picks = np.zeros(m, dtype=_U)
    for k in range(8):
        picks |= np.where(masks[:, PACKET + k], _U(1 << k), _U(0))
    return _Table(
        turn,
        phase,
        hand,
        _bits(played[:, :40] | played[:, 40:]),
        np.where(phase == TURN_PACKETS, hand & ~calls, _U(0)),
        np.where(phase == SELECT_PACKETS, picks ^ _U(0xFF), _U(0)),
        batch.leader[rows],
        led,
        batch.thirds[rows, turn],
        batch.declared[rows, turn],
        batch.match_score[rows, turn],
    )


def check_read(batch: InDueBatch, rows: np.ndarray) -> None:
    """The private read is the public one (the packet fields where they are used); a subset's actions are the subset's."""
    turn = batch.turn[rows]
    private, public = _read(batch, rows, turn), _read_public(batch, rows, turn)
    phase = private.phase
    for name, x, y in zip(_Table._fields, private, public, strict=True):
        if name == "turned":
            x = np.where(phase == TURN_PACKETS, x, _U(0))
        if name == "selected":
            x = np.where(phase == SELECT_PACKETS, x, _U(0))
        assert np.array_equal(x, y) and x.dtype == y.dtype, name


def pin(
    rules: dict,
    n: int,
    steps: int,
    seed: int,
    *,
    random_p: float = 0.3,
    active_p: float = 0.3,
    endgame_p: float = 1.0,
) -> dict:
    """Step a batch and its scalar reference; at each step the batched heuristic must be the scalar one.

    A share ``random_p`` of the moves are random legal actions (to reach states the heuristic
    alone never would), the rest the heuristic's; some steps move only some deals. With
    ``endgame_p`` < 1 a deal entering its endgame (a search, slow) is, with probability
    1 - ``endgame_p``, dealt a new episode instead.
    Returns counts of the decisions compared, by kind.
    """
    batch = InDueBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    counts = {"decisions": 0, "endgame": 0, "call_out": 0, "packets": 0, "hands": 0}
    for step in range(steps):
        got = heuristic_actions(batch)
        expected = np.array(ref.actions())
        wrong = np.flatnonzero(got != expected)
        if len(wrong):
            i = int(wrong[0])
            raise AssertionError(
                f"step {step}, deal {i}: batched {int(got[i])}, scalar {expected[i]} "
                f"({action_to_string(int(expected[i]))}) in {len(wrong)} deal(s)\n{ref.states[i]}"
            )
        phase = batch.phase
        counts["decisions"] += n
        counts["endgame"] += int((phase == PLAY).sum())
        counts["call_out"] += int((got == CALL_OUT).sum())
        counts["packets"] += int(((phase == SELECT_PACKETS) | (phase == TURN_PACKETS)).sum())
        if step % 7 == 3:
            rows = np.flatnonzero(rng.random(n) < 0.5)
            check_read(batch, rows)
            assert np.array_equal(_actions(batch, rows, _read_public), got[rows])
            assert np.array_equal(heuristic_actions(batch, rows), got[rows])
            mask = rng.random(n) < 0.3
            assert np.array_equal(heuristic_actions(batch, mask), got[mask])
        actions = np.where(rng.random(n) < random_p, batch.sample_actions(rng), got)
        active = rng.random(n) < rng.choice([0.2, 0.5, 0.9]) if rng.random() < active_p else None
        result = batch.step(actions, active=active)
        ref.step(actions, active)
        counts["hands"] += int(result.hand_over.sum())
        if endgame_p < 1.0:  # skip some endgames as they begin: a new episode for those deals
            cut = (batch.phase == PLAY) & (phase != PLAY) & (rng.random(n) > endgame_p)
            if cut.any():
                batch.reset(deals=cut)
                for i in np.flatnonzero(cut):
                    ref.states[i] = ref.fresh(int(i))
    return counts


FAMILY_SETS = [  # the in due rule sets of tests/games/family.py (but the default)
    {"follow_suit_with_stock": False, "show_drawn": False, "accusi": "dealt_and_drawn"},
    {"accusi": "dealt", "objective": "avoid", "episode": "match", "target_score": 11},
    {"episode": "match", "target_score": 11, "calling_out": True, "cappotto_bonus": 11},
    {"deal": "packets"},
    {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True, "episode": "match", "target_score": 11},
]
MORE_SETS = [
    {"objective": "avoid"},
    {"deal": "packets", "objective": "avoid", "packet_deal": "choose"},
    {"episode": "match", "target_score": 5, "calling_out": True, "accusi": "dealt_and_drawn"},
    {"deal": "packets", "packet_deal": "choose", "episode": "match", "target_score": 5, "calling_out": True},
    {"follow_suit_with_stock": False, "objective": "avoid", "show_drawn": False},
]


def _ids(rules: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items()) or "default"


def test_the_default_rules():
    counts = pin({}, 120, 60, seed=0, endgame_p=0.6)
    assert counts["endgame"] > 500 and counts["hands"] > 50


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_rule_set(rules):
    packets = rules.get("deal") == "packets"  # few endgames (the packets last), each kept
    counts = pin(rules, 50, 120, seed=len(str(rules)), endgame_p=1.0 if packets else 0.5)
    assert counts["hands"] >= 50
    if packets:
        assert counts["packets"] > 0
    if not rules.get("calling_out"):
        assert counts["endgame"] > 0
    if rules.get("calling_out"):
        assert counts["call_out"] > 0


def test_the_heuristic_alone_and_random_play_alone():
    pin({}, 40, 45, seed=21, random_p=0.0, active_p=0.0)
    pin({"deal": "packets", "packet_deal": "choose"}, 40, 50, seed=22, random_p=0.0, active_p=0.0)
    pin({"episode": "match", "target_score": 11, "calling_out": True}, 60, 45, seed=23, random_p=0.9, endgame_p=0.3)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [{}, *FAMILY_SETS, *MORE_SETS], ids=_ids)
def test_many_more_deals(rules):
    # 150 deals for 160 steps, four endgames in ten searched: 81 s for the eleven sets here (all of
    # them searched, 300 deals: 18 minutes of the slow run)
    counts = pin(rules, 150, 160, seed=5, endgame_p=0.4)
    assert counts["hands"] >= 150
    if not rules.get("calling_out"):
        assert counts["endgame"] > 0


def test_finished_deals_get_minus_one_and_chosen_deals_keep_their_order():
    batch = InDueBatch(6, seed=1, episode="match", target_score=1, deal="packets", packet_deal="choose")
    rng = np.random.default_rng(1)
    while batch.playing.any():
        playing = batch.playing
        assert ((heuristic_actions(batch) == -1) == ~playing).all()
        if not playing.all():
            assert (heuristic_actions(batch, ~playing) == -1).all()
        batch.step(np.where(playing, batch.sample_actions(rng), 0), active=playing, autoreset=False)
    assert (heuristic_actions(batch) == -1).all()
    batch.reset()
    every = heuristic_actions(batch)
    assert np.array_equal(heuristic_actions(batch, [5, 0, 5]), every[[5, 0, 5]])
    assert heuristic_actions(batch, np.zeros(6, dtype=bool)).shape == (0,)
    assert heuristic_actions(batch, []).shape == (0,)


def test_bad_inputs():
    batch = InDueBatch(4, seed=0)
    with pytest.raises(TypeError, match="InDueBatch"):
        heuristic_actions(np.zeros((4, 830)))  # type: ignore[arg-type]
    for deals in ([4], [-1], np.zeros(3, dtype=bool), [0.5]):
        with pytest.raises(ValueError, match="deal"):
            heuristic_actions(batch, deals)


def test_the_heuristic_beats_random_play_and_ducks_with_avoid():
    for rules, sign in (({}, 1), ({"objective": "avoid"}, -1), ({"deal": "packets"}, 1)):
        batch = InDueBatch(60, seed=7, **rules)
        rng = np.random.default_rng(7)
        seat = np.arange(60) % 2  # the heuristic's seat
        total, hands = 0, 0
        for _ in range(50):  # a hand is 40 card plays (and the packet phases)
            mine = batch.turn == seat
            actions = batch.sample_actions(rng)
            actions[mine] = heuristic_actions(batch, mine)
            result = batch.step(actions)
            over = result.hand_over
            points = result.hand_points[over]
            total += int(
                (points[np.arange(len(points)), seat[over]] - points[np.arange(len(points)), 1 - seat[over]]).sum()
            )
            hands += int(over.sum())
        assert hands >= 54
        assert sign * total / hands > 2, (rules, total / hands)


@pytest.mark.parametrize("objective", ["take", "avoid"])
def test_the_endgame_deal_by_deal_chooses_what_the_one_compiled_call_chooses(objective):
    # Without numba (or with open_solver.USE_COMPILED off) ``_endgame`` asks ``best_open_move`` deal
    # by deal in pure Python; with it, ``open_solver_two.best_moves`` for every deal at once. Both
    # must give each deal's card. (Where numba is absent both sides run the pure-Python search.)
    from tressette_env.agents import open_solver

    batch = InDueBatch(24, seed=9, objective=objective)
    rng = np.random.default_rng(9)
    asked = 0
    for _ in range(40):
        endgame = np.flatnonzero(batch.phase == PLAY)
        if len(endgame):
            compiled = heuristic_actions(batch, endgame)
            try:
                open_solver.USE_COMPILED = False
                python = heuristic_actions(batch, endgame)
            finally:
                open_solver.USE_COMPILED = True
            assert compiled.tolist() == python.tolist()
            asked += len(endgame)
        batch.step(batch.sample_actions(rng))
    assert asked > 100
