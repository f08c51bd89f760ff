"""Team self-play on the batched engine: ``SeatRows`` replayed by the scalar engine, and ``TeamPlayPPO`` learning."""

import random

import numpy as np
import pytest

from tressette_env.agents import HeuristicPlayer
from tressette_env.encoders.observation import encode
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, legal_actions_mask, new_game, view
from tressette_env.learned import MLPPlayer
from tressette_env.vector.engine import sample_mask
from tressette_env.vector.seats import SeatRows


def random_act(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, masks: (sample_mask(masks, rng), obs[:, :3].sum(axis=1))  # an extra kept per sample


def replay_hand(rows, rollout, deals, dealers, start, opponent_player=None, rules=None):
    """Replay each deal's hand with the scalar engine: the learners' rows must be what each seat saw and did."""
    rules = rules or Rules()
    for d in range(rows.batch.n):
        state = new_game(rules, hands=deals[d], dealer=int(dealers[d]))
        taken = dict.fromkeys(range(4), start)
        leads = {}
        rng = random.Random(0)
        while state.public.status == PLAYING:
            seat = state.public.turn
            row = rows.row_of[d, seat]
            if row >= 0:
                k = taken[seat]
                assert np.array_equal(rollout.observations[k, row], encode(view(state, seat)))
                mask = np.array([legal_actions_mask(state) >> a & 1 for a in range(161)], dtype=bool)
                assert np.array_equal(rollout.action_masks[k, row], mask)
                assert rollout.episode_starts[k, row] == (k == start)
                assert rollout.extras[0][k, row] == rollout.observations[k, row, :3].sum()
                leads.setdefault(seat, []).append(state.public.rules.game.lead(state.public, seat))
                action = int(rollout.actions[k, row])
                taken[seat] += 1
            else:
                action = opponent_player.act(view(state, seat), legal_actions(state), rng)
            state = apply(state, action)
        returns = state.public.rules.game.returns(state.public)
        for seat in range(4):
            row = rows.row_of[d, seat]
            if row < 0:
                continue
            assert taken[seat] == start + 10
            paid = rollout.rewards[start : start + 10, row]
            assert paid.sum() == pytest.approx(returns[seat], abs=1e-5)
            if rows.dense_reward:  # the thirds since the seat's previous decision, then the rest of the result
                steps = np.diff(np.array(leads[seat] + [returns[seat]]))
                assert np.allclose(paid, steps, atol=1e-5)
            else:
                assert (paid[:-1] == 0).all()
            assert rollout.hand_rewards[start // 10, row] == pytest.approx(returns[seat])


def collect_and_replay(rows, hands, act, opponent_player=None):
    """``hands`` hands, one collect each; each replayed by the scalar engine."""
    for _ in range(hands):
        deals = [rows.batch.deal_of(d) for d in range(rows.batch.n)]
        dealers = rows.batch.dealer
        rollout = rows.collect(act, 10)
        replay_hand(rows, rollout, deals, dealers, 0, opponent_player)


@pytest.mark.parametrize("dense", [False, True])
def test_self_play_rows_are_every_seat_with_its_own_teams_reward(dense):
    rows = SeatRows(12, "all", dense_reward=dense, seed=3)
    assert rows.num_rows == 48 and (rows.row_of.reshape(-1) == np.arange(48)).all()
    collect_and_replay(rows, 3, random_act(0))


def test_team_rows_against_the_heuristic_play_its_cards():
    rows = SeatRows(10, "team", opponent="heuristic", dense_reward=True, seed=4)
    assert rows.num_rows == 20
    assert rows.learns[0].tolist() == [True, False, True, False] and rows.learns[1].tolist() == [
        False,
        True,
        False,
        True,
    ]
    collect_and_replay(rows, 2, random_act(1), HeuristicPlayer())


def test_two_hands_in_one_rollout_and_zero_sum_teams():
    rows = SeatRows(16, seed=5)
    rollout = rows.collect(random_act(2), 20)
    assert rollout.observations.shape == (20, 64, 790) and rollout.hand_rewards.shape == (2, 64)
    assert rollout.episode_starts[[0, 10]].all() and not rollout.episode_starts[[1, 9, 11, 19]].any()
    chosen = rollout.action_masks[np.arange(20)[:, None], np.arange(64)[None], rollout.actions]
    assert chosen.all()  # every action legal
    by_seat = rollout.hand_rewards.reshape(2, 16, 4)
    assert (by_seat[..., 0] == by_seat[..., 2]).all() and (by_seat[..., 1] == -by_seat[..., 0]).all()


def test_bad_settings_and_illegal_actions_are_refused():
    with pytest.raises(ValueError, match="learners is one of all, team"):
        SeatRows(2, "both")
    with pytest.raises(ValueError, match='need episode="hand" and calling_out=False'):
        SeatRows(2, episode="match")
    with pytest.raises(ValueError, match="calling_out=True"):
        SeatRows(2, calling_out=True)
    with pytest.raises(ValueError, match="opponent is 'heuristic', 'random' or a batched policy"):
        SeatRows(2, "team", opponent="grandmaster")
    rows = SeatRows(2, seed=0)
    with pytest.raises(ValueError, match="a positive multiple of 10"):
        rows.collect(random_act(0), 15)
    with pytest.raises(ValueError, match="act returned an illegal action"):
        rows.collect(lambda obs, masks: (np.full(len(obs), 160),), 10)


torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

from tressette_env.training.export import policy_from_sb3  # noqa: E402
from tressette_env.training.masking import MaskablePolicy  # noqa: E402
from tressette_env.training.team_play import TeamPlayPPO  # noqa: E402


class Counting(BaseCallback):
    def __init__(self):
        super().__init__()
        self.steps = self.rollouts = 0

    def _on_step(self):
        self.steps += 1
        return True

    def _on_rollout_end(self):
        self.rollouts += 1


def test_team_play_ppo_learns_from_every_seat():
    model = TeamPlayPPO(MaskablePolicy, num_deals=8, n_steps=20, batch_size=160, n_epochs=2, seed=0,
                        policy_kwargs={"net_arch": [16]}, dense_reward=True)  # fmt: skip
    before = policy_from_sb3(model).layers[0][0].copy()
    callback = Counting()
    model.learn(2 * 20 * 32, callback=callback)
    assert model.num_timesteps == 1280 and callback.rollouts == 2
    assert callback.steps == 2 * 80  # one call per card play (every seat learns: every card)
    buffer = model.rollout_buffer
    assert buffer.observations.shape == (640, 790) and np.isfinite(buffer.advantages).all()  # flattened by train()
    assert len(model.ep_info_buffer) == 100  # 128 seats' hands were played; SB3 keeps the last 100
    assert not np.allclose(policy_from_sb3(model).layers[0][0], before)


def test_a_snapshot_opponent_plays_the_frozen_learners_greedy_cards():
    model = TeamPlayPPO(MaskablePolicy, num_deals=6, learners="team", n_steps=10, batch_size=60, seed=1,
                        policy_kwargs={"net_arch": [16]})  # fmt: skip
    model.learn(60)
    model.snapshot_opponent()
    frozen = policy_from_sb3(model)
    model.learn(60, reset_num_timesteps=False)  # the learner moves on; the opponent stays as it was
    collect_and_replay(model.rows, 1, random_act(3), MLPPlayer(frozen, deterministic=True))


def test_the_team_play_example_trains_snapshots_and_evaluates(capsys):
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "train_team_play.py"), run_name="x")
    figures = example["main"](["--total-timesteps", "480", "--num-deals", "4", "--n-steps", "10", "--learners", "team",
                               "--opponent", "self", "--snapshot-every", "80", "--boards", "2", "--hidden", "8"])  # fmt: skip
    out = capsys.readouterr().out
    assert "8 seat rows (4 deals, learners team); rollouts of 80 samples" in out and "480 samples in" in out
    assert "snapshot: the opponent is now the learner at 80 samples" in out and out.count("snapshot:") == 6
    assert set(figures) == {"random", "heuristic"}
    with pytest.raises(SystemExit):
        example["main"](["--opponent", "self"])
