"""Team play by whole hands (``SeatRows.collect_hands``, ``TeamPlayPPO`` on games whose decisions per hand vary).

Each row is replayed with the scalar engine: what the learning players saw and did, and the
reward each was paid, must be the scalar game's; the advantages are SB3's GAE on each row's hands.
"""

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.encoders.observation import unpack
from tressette_env.engine import PLAYING, apply, legal_actions, legal_actions_mask, new_game
from tressette_env.vector.engine import sample_mask
from tressette_env.vector.seats import SeatRows


def lowest(obs, masks):
    """A batched opponent: the lowest legal action."""
    return masks.argmax(axis=1)


def random_act(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, masks: (sample_mask(masks, rng), obs[:, :5].sum(axis=1))  # an extra kept per sample


def replay_one_hand_per_deal(rows, rollout, deals, dealers):
    """Replay each deal's one hand: the samples of each row, in order, are its player's decisions in it."""
    rules = rows.batch.rules
    game = rules.game
    encoder = catalog.entry_of(rules).observation(rules)
    actions = game.num_actions
    for d in range(rows.batch.n):
        state = new_game(rules, dealer=int(dealers[d]), **deals[d])
        samples = {
            player: iter(np.flatnonzero(rollout.rows == rows.row_of[d, player]))
            for player in range(rows.seats)
            if rows.row_of[d, player] >= 0
        }
        taken = dict.fromkeys(samples, 0)
        last = {}
        leads = {player: [0.0] for player in samples}  # nothing paid at a row's first decision of the hand
        while state.public.status == PLAYING:
            seat = state.public.turn
            player = state.public.table.controllers[seat]
            if player not in samples:
                state = apply(state, min(legal_actions(state)))
                continue
            i = next(samples[player])
            assert np.array_equal(rollout.observations[i], unpack(encoder.seat_bits(state, seat), encoder.size))
            mask = np.array([legal_actions_mask(state) >> a & 1 for a in range(actions)], dtype=bool)
            assert np.array_equal(rollout.action_masks[i], mask)
            assert rollout.extras[0][i] == rollout.observations[i, :5].sum()
            if taken[player]:
                leads[player].append(game.lead(state.public, seat))
            taken[player] += 1
            last[player] = i
            state = apply(state, int(rollout.actions[i]))
        returns = game.returns(state.public)
        for player, left in samples.items():
            assert next(left, None) is None  # no sample the hand did not have
            row = rows.row_of[d, player]
            paid = rollout.hand_rows == row
            assert rollout.hand_decisions[paid].tolist() == [taken[player]]
            assert rollout.hand_rewards[paid] == pytest.approx([returns[player]], abs=1e-5)
            if not taken[player]:  # a dealer sitting out: paid in the hands' results, no sample to carry it
                assert not (rollout.rows == row).any()
                continue
            mine = np.flatnonzero(rollout.rows == row)
            assert rollout.hand_ends[mine].tolist() == [False] * (taken[player] - 1) + [True]
            assert rollout.rewards[mine].sum() == pytest.approx(returns[player], abs=1e-4)
            if rows.dense_reward:  # the thirds since the row's previous decision, the last settling the rest
                assert rollout.rewards[mine] == pytest.approx(np.diff(leads[player] + [returns[player]]), abs=1e-4)
            else:
                assert rollout.rewards[mine[:-1]].tolist() == [0.0] * (taken[player] - 1)


@pytest.mark.parametrize(
    ("game", "learners", "dense", "rules"),
    [
        ("calabresella", "all", False, {}),
        ("calabresella", "team", True, {"auction": "first_taker", "show_monte_on_call": True, "exchange": "partial"}),
        ("calabresella", "all", True, {"players": 4, "four_player": "dealer_sits_out"}),
        ("calabresella", "all", False, {"players": 4}),
        ("tressette_a_chiamare", "all", True, {}),
        ("tressette_a_chiamare", "team", False, {}),
        ("tressette_in_due", "all", True, {"deal": "packets"}),
        ("tressette_a_perdere", "all", False, {"players": 3, "reduce": "dealer_discard"}),
    ],
)
def test_each_row_is_its_players_decisions_and_the_hands_result(game, learners, dense, rules):
    rows = SeatRows(6, learners, lowest, dense_reward=dense, seed=3, game=game, **rules)
    assert rows.decisions_per_hand is None and rows.seats == rows.batch.num_agents
    deals = [rows.batch.deal_of(d) for d in range(rows.batch.n)]
    dealers = rows.batch.dealer
    rollout = rows.collect_hands(random_act(4), 1)  # one decision asked: every deal plays its hand, no more
    replay_one_hand_per_deal(rows, rollout, deals, dealers)
    if learners == "all" and game != "tressette_a_perdere":  # stakes change hands (a perdere charges everyone)
        by_deal = np.bincount(rows.deal_of_row[rollout.hand_rows], weights=rollout.hand_rewards)
        assert by_deal == pytest.approx(np.zeros(rows.batch.n), abs=1e-4)
    assert (rows.batch.tricks_done == 0).all() and (rows.batch.turn >= 0).all()  # dealt anew for the next call


def test_hands_go_on_until_the_samples_asked_and_end_whole():
    rows = SeatRows(8, "all", seed=5, game="calabresella")
    rollout = rows.collect_hands(random_act(1), 500)
    assert len(rollout.actions) >= 500
    for row in range(rows.num_rows):  # every row's last sample ends a hand
        assert rollout.hand_ends[np.flatnonzero(rollout.rows == row)][-1]
    assert rollout.hand_ends.sum() == (rollout.hand_decisions > 0).sum()
    assert len(rollout.hand_rewards) > rows.num_rows  # several hands a deal
    assert rollout.hand_decisions.sum() == len(rollout.actions)


@pytest.mark.parametrize(
    ("game", "learners", "dense", "rules"),
    [
        ("tressette_a_perdere", "team", False, {"players": 4}),
        ("tressette_a_perdere", "all", True, {"players": 5}),
        ("tressette", "team", True, {}),
        ("tressette", "all", False, {"signals": False}),
        ("tressette_col_morto", "all", True, {"players": 3}),
        ("tressette_col_morto", "team", False, {"players": 2}),
        ("tressette_in_due", "all", True, {}),
    ],
)
def test_on_games_with_fixed_decisions_collect_hands_plays_what_collect_plays(game, learners, dense, rules):
    a = SeatRows(4, learners, lowest, dense_reward=dense, seed=9, game=game, **rules)
    b = SeatRows(4, learners, lowest, dense_reward=dense, seed=9, game=game, **rules)
    first = lambda obs, masks: (masks.argmax(axis=1),)  # noqa: E731
    hand = a.collect(first, a.decisions_per_hand)
    hands = b.collect_hands(first, 1)
    for row in range(a.num_rows):
        mine = np.flatnonzero(hands.rows == row)
        assert np.array_equal(hands.observations[mine], hand.observations[:, row])
        assert np.array_equal(hands.actions[mine], hand.actions[:, row])
        assert hands.rewards[mine] == pytest.approx(hand.rewards[:, row], abs=1e-5)


def test_whole_hands_refuse_what_cannot_work():
    with pytest.raises(ValueError, match="collect_hands plays it"):
        SeatRows(4, "all", game="calabresella").collect(random_act(0), 10)
    rows = SeatRows(4, "all", game="tressette_a_chiamare")
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(ValueError, match="samples is a number of decisions"):
            rows.collect_hands(random_act(0), bad)
    with pytest.raises(ValueError, match="act returned an illegal action"):
        rows.collect_hands(lambda obs, masks: ((~masks).argmax(axis=1),), 10)


def sb3_advantages(values, rewards, starts, gamma, lam):
    """SB3's own GAE over a (T, rows) rollout whose every row ends a hand at T."""
    import torch as th
    from gymnasium import spaces
    from stable_baselines3.common.buffers import RolloutBuffer

    t, n = values.shape
    buffer = RolloutBuffer(t, spaces.Box(0, 1, (1,)), spaces.Discrete(2), "cpu", gae_lambda=lam, gamma=gamma, n_envs=n)
    buffer.values[:], buffer.rewards[:], buffer.episode_starts[:] = values, rewards, starts
    buffer.compute_returns_and_advantage(last_values=th.zeros(n), dones=np.ones(n))
    return buffer.advantages, buffer.returns


def test_whole_hand_advantages_are_sb3s_gae_row_by_row():
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")  # the train extra
    from tressette_env.training.team_play import whole_hand_advantages

    rng = np.random.default_rng(0)
    t, n = 12, 5
    values = rng.normal(size=(t, n)).astype(np.float32)
    starts = np.zeros((t, n), dtype=bool)
    starts[0] = True
    for row in range(n):  # hands of different lengths
        starts[rng.choice(np.arange(2, t - 1), size=row % 3, replace=False), row] = True
    ends = np.roll(starts, -1, axis=0)
    ends[-1] = True
    rewards = np.where(ends, rng.normal(size=(t, n)), 0).astype(np.float32)
    want_a, want_r = sb3_advantages(values, rewards, starts, 0.97, 0.9)
    time_of, row_of = np.repeat(np.arange(t), n), np.tile(np.arange(n), t)
    played = np.lexsort((rng.random(t * n), time_of))  # in time order, the rows at one time in any order
    t_idx, r_idx = time_of[played], row_of[played]
    a, r = whole_hand_advantages(values[t_idx, r_idx], rewards[t_idx, r_idx], r_idx, ends[t_idx, r_idx], 0.97, 0.9)
    assert np.allclose(a, want_a[t_idx, r_idx], atol=1e-5) and np.allclose(r, want_r[t_idx, r_idx], atol=1e-5)
    with pytest.raises(ValueError, match="whole hands"):
        whole_hand_advantages(values[t_idx, r_idx], rewards[t_idx, r_idx], r_idx, np.zeros(t * n, bool), 0.97, 0.9)


@pytest.mark.parametrize(
    ("game", "learners", "opponent"),
    [("calabresella", "all", "heuristic"), ("tressette_a_chiamare", "team", ("heuristic", "self"))],
)
def test_team_play_ppo_learns_on_every_decision_of_whole_hands(game, learners, opponent):
    th = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")  # the train extra

    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.training.team_play import TeamPlayPPO

    model = TeamPlayPPO(
        MaskablePolicy, num_deals=4, learners=learners, opponent=opponent, n_steps=15, batch_size=64, n_epochs=1,
        seed=0, game=game, policy_kwargs={"net_arch": [16]},
    )  # fmt: skip
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(2 * 15 * model.rows.num_rows)
    buffer = model.rollout_buffer
    assert buffer.buffer_size >= 15 * model.rows.num_rows and buffer.n_envs == 1  # whole hands, whole minibatches
    assert buffer.buffer_size % 64 == 0
    assert model.num_timesteps >= 2 * 15 * model.rows.num_rows
    assert len(model.ep_info_buffer) > 0
    assert buffer.action_masks[
        np.arange(buffer.buffer_size * buffer.n_envs), buffer.actions.reshape(-1).astype(int)
    ].all()
    assert any(not th.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))
