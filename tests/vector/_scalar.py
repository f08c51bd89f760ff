"""The scalar reference for the batched engine: one engine state per deal, stepped alongside."""

from __future__ import annotations

import numpy as np

from tressette_env.encoders import observation_of
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    Rules,
    apply,
    legal_actions_mask,
    new_game,
    next_hand,
    renuncio,
    view,
)
from tressette_env.vector import TressetteBatch


def mask_bits(mask: int) -> np.ndarray:
    """An engine action mask (int) as the (161,) 0/1 vector of the environments."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(21, "little"), np.uint8), count=161, bitorder="little")


class Reference:
    """Scalar engine states mirroring every deal of a batch."""

    def __init__(self, batch: TressetteBatch, rules: dict):
        self.batch = batch
        self.rules = Rules(**rules)
        self.encode = observation_of(self.rules, batch.history).encode
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, hands=self.batch.deal_of(i), dealer=int(self.batch.dealer[i]))

    def check_masks(self) -> None:
        got = self.batch.legal_masks()
        for i, state in enumerate(self.states):
            expected = mask_bits(legal_actions_mask(state))
            assert np.array_equal(got[i], expected), f"deal {i}: mask"

    def check_leads(self) -> None:
        actions, seats = self.batch.leads()
        for i, state in enumerate(self.states):
            expected = [(leader, acts[0]) for leader, _, acts in state.public.tricks() if acts]
            got = [(int(s), int(a)) for s, a in zip(seats[i], actions[i], strict=True) if a >= 0]
            assert got == expected, f"deal {i}: leads {got} != {expected}"
            assert (actions[i][len(got) :] == -1).all() and (seats[i][len(got) :] == -1).all()

    def check_observations(self, seats=(None, 0, 1, 2, 3)) -> None:
        for seat in seats:
            got = self.batch.observe(seats=seat)
            for i, state in enumerate(self.states):
                s = state.public.turn if seat is None else seat
                expected = self.encode(view(state, s))
                if not np.array_equal(got[i], expected):
                    diff = np.flatnonzero(got[i] != expected)
                    raise AssertionError(f"deal {i}, seat {s}: observation differs at {diff[:10]}")

    def step(self, actions: np.ndarray, active: np.ndarray | None, result, autoreset: bool = True) -> list[int]:
        """Apply the same actions, check ``result`` deal by deal; return the deals whose episode ended."""
        rules = self.rules
        finished = []
        for i, state in enumerate(self.states):
            if active is not None and not active[i]:
                assert not result.hand_over[i]
                continue
            action = int(actions[i])
            if legal_actions_mask(state) >> action & 1:
                state = apply(state, action)
            else:
                state = renuncio(state)
            p = state.public
            assert result.hand_over[i] == (p.status != PLAYING), f"deal {i}: hand over"
            rewards = np.zeros(4, dtype=np.float32)
            if p.status != PLAYING:
                r = p.result
                assert tuple(result.hand_points[i]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i]) == r.card_thirds, (i, result.card_thirds[i], r)
                assert tuple(result.accusi[i]) == r.accusi, (i, result.accusi[i], r)
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert result.called_out[i] == (-1 if r.called_out is None else r.called_out)
                assert result.hand_number[i] == p.hand_number
                if rules.is_match:
                    assert tuple(result.match_score[i]) == p.match_score
                assert result.winner[i] == (-1 if p.winner is None else p.winner)
                if p.status == GAME_OVER:
                    if rules.is_match:
                        team = (1.0, -1.0) if p.winner == 0 else (-1.0, 1.0)
                    else:
                        diff = float(r.points[0] - r.points[1])
                        team = (diff, -diff)
                    rewards = np.array([team[s % 2] for s in range(4)], dtype=np.float32)
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                assert self.batch.dealer[i] == (p.dealer + 1) % 4
                state = next_hand(state, hands=self.batch.deal_of(i))
            elif p.status == GAME_OVER:
                finished.append(i)
                if autoreset:
                    state = self.fresh(i)
            self.states[i] = state
        return finished
