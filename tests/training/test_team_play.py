"""Team self-play on the batched engine: ``SeatRows`` replayed by the scalar engine, and ``TeamPlayPPO`` learning."""

import json
import random

import numpy as np
import pytest

from tests.helpers import without_model
from tressette_env.agents import HeuristicPlayer
from tressette_env.encoders import observation_of
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, legal_actions_mask, new_game, view
from tressette_env.learned import MLPPlayer
from tressette_env.vector.engine import sample_mask
from tressette_env.vector.seats import SeatRows


def random_act(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, masks: (sample_mask(masks, rng), obs[:, :3].sum(axis=1))  # an extra kept per sample


def replay_hand(rows, rollout, deals, dealers, start, opponent_player=None, rules=None):
    """Replay each deal's hand with the scalar engine: the learners' rows must be what each seat saw and did.

    ``opponent_player``: the scalar player of the other team, or a function of the deal giving it.
    """
    rules = rules or Rules()
    encode = observation_of(rules, rows.history).encode
    for d in range(rows.batch.n):
        opponent = opponent_player(d) if callable(opponent_player) else opponent_player
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
                action = opponent.act(view(state, seat), legal_actions(state), rng)
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


def replay_col_morto(rows, rollout, deals, dealers, opponent_player=None):
    """``replay_hand`` for col morto: each row is a seat, seen from its player's own seat, paid its side's result."""
    from tressette_env.encoders.col_morto import observation
    from tressette_env.encoders.observation import unpack
    from tressette_env.engine.game import check_deal
    from tressette_env.games.col_morto import COL_MORTO

    rules = rows.batch.rules
    encoder = observation(rules)
    for d in range(rows.batch.n):
        state = COL_MORTO._deal(rules, int(dealers[d]), 0, check_deal(deals[d]), (0,) * rules.players, 0)
        table = state.public.table
        taken = dict.fromkeys(range(4), 0)
        leads = {}
        rng = random.Random(0)
        while state.public.status == PLAYING:
            seat = state.public.turn
            own = table.seat_of[table.controllers[seat]]
            row = rows.row_of[d, seat]
            if row >= 0:
                k = taken[seat]
                assert np.array_equal(rollout.observations[k, row], unpack(encoder.seat_bits(state, own), encoder.size))
                mask = np.array([legal_actions_mask(state) >> a & 1 for a in range(255)], dtype=bool)
                assert np.array_equal(rollout.action_masks[k, row], mask)
                assert rollout.episode_starts[k, row] == (k == 0)
                leads.setdefault(seat, []).append(COL_MORTO.lead(state.public, seat))
                action = int(rollout.actions[k, row])
                taken[seat] += 1
            else:
                action = opponent_player.act(view(state, own), legal_actions(state), rng)
            state = apply(state, action)
        returns = COL_MORTO.returns(state.public)
        for seat in range(4):
            row = rows.row_of[d, seat]
            if row < 0:
                continue
            result = returns[table.controllers[seat]]
            paid = rollout.rewards[:10, row]
            assert taken[seat] == 10 and paid.sum() == pytest.approx(result, abs=1e-5)
            if rows.dense_reward:
                assert np.allclose(paid, np.diff(np.array(leads[seat] + [result])), atol=1e-5)
            else:
                assert (paid[:-1] == 0).all()


@pytest.mark.parametrize(
    ("learners", "dense", "rules"),
    [("all", False, {}), ("all", True, {"players": 2}), ("team", True, {"dummy_exposed": "after_first_card"})],
)
def test_col_morto_rows_are_every_seat_seen_by_its_player_with_its_sides_reward(learners, dense, rules):
    from tressette_env.agents.col_morto_heuristic import ColMortoHeuristic

    rows = SeatRows(10, learners, "heuristic", dense, seed=5, game="tressette_col_morto", **rules)
    for _ in range(2):
        deals = [rows.batch.deal_of(d) for d in range(rows.batch.n)]
        dealers = rows.batch.dealer
        rollout = rows.collect(random_act(2), 10)
        replay_col_morto(rows, rollout, deals, dealers, ColMortoHeuristic())


def replay_own_seats(rows, rollout, deals, dealers, opponent=None):
    """``replay_hand`` for a game whose agents are its seats (in due, a perdere): each learning seat a row, paid
    ``Game.returns`` and ``Game.lead``; ``opponent`` plays the other seats (the lowest legal action)."""
    from tressette_env import catalog
    from tressette_env.encoders.observation import unpack

    rules = rows.batch.rules
    game = rules.game
    encoder = catalog.entry_of(rules).observation(rules)
    per_hand = rows.decisions_per_hand
    for d in range(rows.batch.n):
        state = new_game(rules, dealer=int(dealers[d]), **deals[d])
        taken = dict.fromkeys(range(rows.seats), 0)
        leads = {}
        while state.public.status == PLAYING:
            seat = state.public.turn
            row = rows.row_of[d, seat]
            if row < 0:
                state = apply(state, min(legal_actions(state)))
                continue
            k = taken[seat]
            assert np.array_equal(rollout.observations[k, row], unpack(encoder.seat_bits(state, seat), encoder.size))
            mask = np.array([legal_actions_mask(state) >> a & 1 for a in range(255)], dtype=bool)
            assert np.array_equal(rollout.action_masks[k, row], mask)
            assert rollout.episode_starts[k, row] == (k == 0)
            leads.setdefault(seat, []).append(game.lead(state.public, seat))
            taken[seat] += 1
            state = apply(state, int(rollout.actions[k, row]))
        returns = game.returns(state.public)
        for seat in range(rows.seats):
            row = rows.row_of[d, seat]
            if row < 0:
                continue
            paid = rollout.rewards[:per_hand, row]
            assert taken[seat] == per_hand and paid.sum() == pytest.approx(returns[seat], abs=1e-5)
            if rows.dense_reward:
                assert np.allclose(paid, np.diff(np.array(leads[seat] + [returns[seat]])), atol=1e-5)
            else:
                assert (paid[:-1] == 0).all()


@pytest.mark.parametrize(
    ("game", "learners", "dense", "rules"),
    [
        ("tressette_in_due", "all", False, {}),
        ("tressette_in_due", "all", True, {"objective": "avoid", "show_drawn": False}),
        ("tressette_a_perdere", "all", True, {}),
        ("tressette_a_perdere", "team", False, {"players": 5, "objective": "take"}),
        ("tressette_a_perdere", "all", True, {"teams": True}),
        ("tressette_a_perdere", "all", False, {"players": 3}),
    ],
)
def test_rows_of_games_whose_agents_are_their_seats(game, learners, dense, rules):
    rows = SeatRows(6, learners, lowest, dense_reward=dense, seed=6, game=game, **rules)
    per_hand = rows.decisions_per_hand
    for _ in range(2):
        deals = [rows.batch.deal_of(d) for d in range(rows.batch.n)]
        dealers = rows.batch.dealer
        rollout = rows.collect(random_act(3), per_hand)
        replay_own_seats(rows, rollout, deals, dealers)


def test_in_due_team_rows_refuse_what_cannot_work(monkeypatch):
    from tressette_env.vector.a_perdere import APerdereBatch

    for game, rules in (("tressette_in_due", {"deal": "packets"}), ("calabresella", {})):
        rows = SeatRows(4, "all", game=game, **rules)  # the packets, the auction: played by whole hands
        assert rows.decisions_per_hand is None
        with pytest.raises(ValueError, match="collect_hands plays it"):
            rows.collect(random_act(0), 20)
    assert SeatRows(4, "team", "heuristic", game="tressette_a_perdere").num_rows == 8  # its heuristic is batched
    monkeypatch.delattr(APerdereBatch, "heuristic_actions")  # as a game whose heuristic is not batched
    with pytest.raises(ValueError, match="no batched heuristic yet"):
        SeatRows(4, "team", "heuristic", game="tressette_a_perdere")
    rows = SeatRows(4, "team", "random", game="tressette_in_due")
    assert rows.num_rows == 4 and rows.learns[:, 0].tolist() == [True, False, True, False]
    with pytest.raises(ValueError, match="a positive multiple of 20"):
        rows.collect(random_act(0), 10)


def test_team_play_ppo_learns_col_morto():
    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.training.team_play import TeamPlayPPO

    model = TeamPlayPPO(MaskablePolicy, num_deals=4, n_steps=10, batch_size=40, seed=0, game="tressette_col_morto")
    assert model.env.num_envs == 16 and model.action_space.n == 255
    assert model.observation_space.shape == (999,)
    model.learn(160)
    assert model.num_timesteps == 160


class Lowest:
    """The scalar face of ``lowest``: the lowest legal action."""

    def act(self, view, legal, rng):
        return min(legal)


def lowest(obs, masks):
    """A batched opponent policy: the lowest legal action."""
    return masks.argmax(axis=1)


def test_a_pool_of_opponents_plays_deals_2k_and_2k_plus_1_by_its_kth_member():
    rows = SeatRows(10, "team", opponent=("heuristic", lowest), dense_reward=True, seed=8)
    assert rows.opponent_of_deal.tolist() == [0, 0, 1, 1, 0, 0, 1, 1, 0, 0] and rows.opponent == ("heuristic", lowest)
    pool = (HeuristicPlayer(), Lowest())
    collect_and_replay(rows, 2, random_act(5), lambda d: pool[(d // 2) % 2])
    rows.set_opponent("heuristic", slot=1)  # a member replaced: every deal now against the heuristic
    assert rows.opponents == ("heuristic", "heuristic")
    collect_and_replay(rows, 1, random_act(6), HeuristicPlayer())
    rows.set_opponent(lowest)  # one opponent again
    assert rows.opponent is lowest and (rows.opponent_of_deal == 0).all()
    collect_and_replay(rows, 1, random_act(7), Lowest())


def test_bad_pools_are_refused_and_change_nothing():
    rows = SeatRows(4, "team", opponent=("heuristic", "random"), seed=0)
    for bad, kwargs, message in [
        ((), {}, "a non-empty pool"),
        (("heuristic", "grandmaster"), {}, "got 'grandmaster'"),
        ("heuristic", {"slot": 2}, "slot is a member of the pool, 0 to 1; got 2"),
        ("heuristic", {"slot": True}, "slot is a member of the pool"),
        (("heuristic", "random", "random"), {}, "needs at least 6 deals; got 4"),
        ("grandmaster", {"slot": 0}, "got 'grandmaster'"),
    ]:
        with pytest.raises(ValueError, match=message):
            rows.set_opponent(bad, **kwargs)
        assert rows.opponents == ("heuristic", "random")


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

from tressette_env.training import TrainConfig, train  # noqa: E402
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


def test_the_history_observation_rows_replay_and_a_history_policy_learns_and_snapshots():
    rows = SeatRows(6, "all", dense_reward=True, seed=7, history=True)
    collect_and_replay(rows, 1, random_act(1))
    model = TeamPlayPPO(MaskablePolicy, num_deals=6, learners="team", n_steps=10, batch_size=60, seed=2,
                        policy_kwargs={"net_arch": [16]}, history=True)  # fmt: skip
    assert model.observation_space.shape == (1460,)
    model.learn(120)
    frozen = policy_from_sb3(model)
    assert frozen.observation == "history" and frozen.layers[0][0].shape == (16, 1460)
    model.snapshot_opponent()  # the opponent reads the same history observations
    collect_and_replay(model.rows, 1, random_act(4), MLPPlayer(frozen, deterministic=True))


def test_a_snapshot_opponent_plays_the_frozen_learners_greedy_cards():
    model = TeamPlayPPO(MaskablePolicy, num_deals=6, learners="team", n_steps=10, batch_size=60, seed=1,
                        policy_kwargs={"net_arch": [16]})  # fmt: skip
    model.learn(60)
    model.snapshot_opponent()
    frozen = policy_from_sb3(model)
    model.learn(60, reset_num_timesteps=False)  # the learner moves on; the opponent stays as it was
    collect_and_replay(model.rows, 1, random_act(3), MLPPlayer(frozen, deterministic=True))


def test_a_pool_with_self_plays_a_frozen_copy_of_the_learner_in_its_deals():
    model = TeamPlayPPO(MaskablePolicy, num_deals=6, learners="team", opponent=("heuristic", "self"), n_steps=10,
                        batch_size=60, seed=3, policy_kwargs={"net_arch": [16]})  # fmt: skip
    assert model.snapshot_slots == (1,) and model.rows.opponents[0] == "heuristic"
    assert callable(model.rows.opponents[1])  # the learner as it starts
    model.learn(120)
    model.snapshot_opponent()
    frozen = MLPPlayer(policy_from_sb3(model), deterministic=True)
    model.learn(60, reset_num_timesteps=False)  # the learner moves on; the copy stays as it was
    pool = (HeuristicPlayer(), frozen)
    collect_and_replay(model.rows, 1, random_act(8), lambda d: pool[(d // 2) % 2])


def test_the_snapshot_callback_renews_the_copies_every_so_many_samples(capsys):
    from tressette_env.training.team_play import SnapshotCallback

    model = TeamPlayPPO(MaskablePolicy, num_deals=4, learners="team", opponent="self", n_steps=10, batch_size=40,
                        seed=4, policy_kwargs={"net_arch": [8]})  # fmt: skip
    copies = []
    model.snapshot_opponent = lambda: copies.append(model.num_timesteps)  # rollouts of 80 samples
    model.learn(400, callback=SnapshotCallback(150))
    assert copies == [160, 320]  # at the first rollout end at or after 150, then 300
    assert capsys.readouterr().out.count("snapshot: the opponent is now the learner at") == 2
    with pytest.raises(ValueError, match="every is a number of samples, at least 1"):
        SnapshotCallback(0)


def test_the_ppo_opponent_plays_the_shipped_players_cards_on_either_observation():
    from tressette_env.agents import make_player
    from tressette_env.training.train import _batched_opponent
    from tressette_env.vector.engine import TressetteBatch

    ppo, scalar = _batched_opponent("ppo", "tressette"), make_player("ppo")
    plain, history = TressetteBatch(6, seed=9), TressetteBatch(6, seed=9, history=True)
    states = [new_game(hands=plain.deal_of(d), dealer=int(plain.dealer[d])) for d in range(6)]
    rng = random.Random(0)
    for _ in range(40):  # a whole hand
        masks = plain.legal_masks(bool).astype(np.int8)
        actions = ppo(plain.observe(), masks)
        assert (actions == ppo(history.observe(), masks)).all()
        for d, state in enumerate(states):
            legal = legal_actions(state)
            assert actions[d] == scalar.act(view(state, state.public.turn), legal, rng)
            states[d] = apply(state, int(actions[d]))
        plain.step(actions), history.step(actions)


def test_the_ppo_opponent_is_the_model_shipped_for_the_game_played(monkeypatch):
    from tressette_env.learned.loading import shipped_model_path
    from tressette_env.learned.mlp import MLPPolicy
    from tressette_env.training.train import _batched_opponent
    from tressette_env.vector.calabresella import CalabresellaBatch

    batch = CalabresellaBatch(16, seed=2)
    masks = batch.legal_masks()
    shipped = MLPPolicy.load(shipped_model_path("calabresella"))
    assert shipped.layers[0][0].shape[1] == batch.observation.size
    assert (
        _batched_opponent("ppo", "calabresella")(batch.observe(), masks) == shipped.best_actions(batch.observe(), masks)
    ).all()
    with pytest.raises(ValueError, match="no model is shipped for tressette_a_chiamare"):
        _batched_opponent("ppo", without_model(monkeypatch))


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
    for argv, words in [
        (["--opponent", "self"], "--opponent self needs --learners team"),
        (["--opponent", "heuristic"], "--opponent heuristic needs --learners team"),  # it was ignored
        (["--n-steps", "15"], "n_steps is decisions per seat per rollout, a multiple of 10"),  # was a traceback
        (["--num-deals", "0"], "num_deals must be an int >= 1"),
    ]:
        with pytest.raises(SystemExit):
            example["main"](argv)
        assert words in capsys.readouterr().err


def test_tressette_train_team_play_runs_evaluates_and_writes_a_playable_run(tmp_path, capsys):
    from tressette_env.cli import main
    from tressette_env.learned import load_player
    from tressette_env.learned.mlp import MLPPolicy

    argv = [
        "train", "--team-play", "8", "--opponents", "self", "--imitate", "none", "--n-steps", "10",
        "--total-timesteps", "600", "--eval-every", "320", "--eval-boards", "2", "--final-boards", "2",
        "--net-arch", "16", "--batch-size", "160", "--eval-against", "random", "ppo", "--history",
        "--run-dir", str(tmp_path), "--run-name", "tp", "--no-progress-bar",
    ]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "team play: 8 deals, every seat learning (32 seat rows); rollouts of 320 samples" in out
    assert "rounded up to 640" in out and "| learner | ppo | 2 |" in out
    run = tmp_path / "tp"
    history = json.loads((run / "history.json").read_text())
    assert [p["timesteps"] for p in history] == [8, 328, 640]  # the untrained policy, then after each update
    policy = MLPPolicy.load(run / "policy.npz")
    assert policy.observation == "history" and policy.info["timesteps"] == 640
    assert load_player(run / "model.zip").policy.observation == "history"  # read without unpickling


def test_team_play_runs_against_one_player_with_one_team_learning(tmp_path, capsys):
    config = TrainConfig(
        team_play=6, opponents=("heuristic",), imitate="heuristic", imitation_decisions=200, imitation_epochs=1,
        n_steps=10, total_timesteps=120, eval_every=0, final_boards=2, net_arch=(16,), batch_size=60,
        eval_against=("random",), run_dir=str(tmp_path), run_name="team", progress_bar=False,
    )  # fmt: skip
    result = train(config)
    out = capsys.readouterr().out
    assert (
        "6 deals, one team of each learning against heuristic (12 seat rows)" in out and "imitation of heuristic" in out
    )
    assert result.policy_path.exists() and "random" in result.final
    # the warm start says what it does before its minutes of work, and how to skip it
    assert out.index("warm start: the policy clones heuristic's play over 200 decisions (1 epoch;") < out.index(
        "imitation of heuristic"
    )


def test_team_play_runs_on_a_game_with_an_auction_against_its_heuristic_and_its_model(tmp_path, capsys):
    config = TrainConfig(
        game="calabresella", team_play=4, opponents=("heuristic", "ppo"), imitate="none", n_steps=15,
        total_timesteps=200, eval_every=0, final_boards=2, net_arch=(16,), batch_size=64,
        eval_against=("random",), run_dir=str(tmp_path), run_name="calabresella", progress_bar=False,
    )  # fmt: skip
    config.check()
    result = train(config)
    out = capsys.readouterr().out
    assert "4 deals, the players of one parity of each deal learning, heuristic, ppo the others (6 seat rows)" in out
    assert "rollouts of whole hands, at least 90 samples" in out and "rounded" not in out
    from tressette_env.learned.mlp import MLPPolicy

    assert MLPPolicy.load(result.policy_path).layers[0][0].shape[1] == 859  # Calabresella's observation
    # eval_every=0: the first step and the end, though the last rollout of whole hands ran past the run's 200 samples
    assert len(result.history) == 2, [p["timesteps"] for p in result.history]


def test_a_run_of_whole_hands_shorter_than_a_rollout_says_it_trains_one(tmp_path, capsys):
    """--total-timesteps under one rollout of whole hands: the run trains one rollout, and says so (its progress bar's
    total is that rollout: it showed 51,250/100)."""
    config = TrainConfig(
        game="calabresella", team_play=4, opponents=("heuristic",), imitate="none", n_steps=15,
        total_timesteps=50, eval_every=0, final_boards=2, net_arch=(16,), batch_size=64,
        eval_against=("random",), run_dir=str(tmp_path), run_name="short", progress_bar=False,
    )  # fmt: skip
    config.check()
    result = train(config)
    out = capsys.readouterr().out
    assert (
        "rollouts of whole hands, at least 90 samples; total_timesteps=50 rounded up to one rollout, at least 90" in out
    )
    assert 90 <= result.history[-1]["timesteps"] < 180, [p["timesteps"] for p in result.history]


def test_team_play_against_a_pool_renews_its_copies_of_the_learner(tmp_path, capsys):
    config = TrainConfig(
        team_play=8, opponents=("heuristic", "ppo", "self", "random"), imitate="none", n_steps=10,
        total_timesteps=480, snapshot_every=300, eval_every=0, final_boards=2, net_arch=(16,), batch_size=80,
        eval_against=("random",), run_dir=str(tmp_path), run_name="pool", progress_bar=False,
    )  # fmt: skip
    config.check()
    result = train(config)
    out = capsys.readouterr().out
    assert "8 deals, one team of each learning against heuristic, ppo, self, random (16 seat rows)" in out
    assert out.count("snapshot: the opponent is now the learner at") == 1 and "at 320 samples" in out
    assert result.policy_path.exists()


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"game": "tressette_in_due", "n_steps": 30}, "a multiple of 20"),
        ({"game": "tressette_col_morto", "history": True}, "history observation is batched in the four-seat game only"),
        ({"rules": {"episode": "match"}}, r'needs episode="hand" and no calling_out \(got episode=\'match\', calling'),
        ({"rules": {"episode": "match", "calling_out": True}}, r"calling_out=True\)"),
        ({"game": "calabresella", "rules": {"episode": "match"}}, r'needs episode="hand" \(got episode=\'match\'\)'),
        ({"opponents": ("self", "search")}, "with team_play, self alone"),
        ({"opponents": ("heuristic", "random", "ppo", "self", "random")}, "team_play needs at least 10 deals"),
        ({"partner": "random"}, "the learner's partner is the learner"),
        ({"batched": 64}, "batched=64: with team_play"),
        ({"n_envs": 4}, "n_envs=4: with team_play"),
        ({"subproc": True}, "runs in this process"),
        ({"n_steps": 128}, "a multiple of 10"),
        ({"resume": "runs/x/model.zip"}, "writes no checkpoints"),
    ],
)
def test_team_play_settings_that_cannot_work_are_named(settings, message):
    config = TrainConfig(**{"team_play": 8, "opponents": ("self",), "n_steps": 20, **settings})
    with pytest.raises(ValueError, match=message):
        config.check()


def test_team_play_names_the_games_with_a_batched_engine():
    from tests.games import toy  # registers its game (no batched engine) through the catalog alone

    config = TrainConfig(team_play=8, opponents=("self",), n_steps=20, game=toy.ENTRY.name)
    with pytest.raises(
        ValueError, match="team play needs a batched engine; games with one: tressette, tressette_in_due"
    ):
        config.check()
