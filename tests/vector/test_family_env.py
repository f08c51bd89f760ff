"""The family's batched single-learner environment: ``SingleAgentEnv`` step for step, make_vec, SB3, bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.games.auction import StakeGame
from tressette_env.vector import TressetteBatch, sample_mask
from tressette_env.vector.family_env import FamilyVectorEnv
from tressette_env.wrappers.single_agent import SingleAgentEnv

BATCHED = [e.name for e in catalog.entries() if e.batch is not None]
MAKE_VEC = [e.name for e in catalog.entries() if e.gym_vector_entry_point and e.batch is not None]
RULES = {
    "tressette_col_morto": [{}, {"players": 2, "dummy_exposed": "after_first_card"}, {"signals": False}],
    "tressette_a_perdere": [
        {},
        {"players": 3, "reduce": "dealer_discard", "asso_bastoni_value": 18},
        {"players": 6, "reduce": "monte", "objective": "take", "last_trick": "plus_one"},
        {"teams": True, "first_lead": "four_of_denari"},
    ],
    "tressette_in_due": [
        {},
        {"objective": "avoid", "show_drawn": False},
        {"deal": "packets", "packet_deal": "choose"},
    ],
}


class Lowest:
    """The scalar face of ``lowest``: the lowest legal action."""

    name = "lowest"

    def act(self, view, legal, rng):
        return min(legal)


def lowest(obs, mask):
    """A batched policy: the lowest legal action of each row."""
    return mask.argmax(axis=1)


def _others(game):
    """The batched others and their scalar twin: the heuristic where it is batched, else the lowest legal action."""
    if hasattr(catalog.entry(game).batch_type(), "heuristic_actions"):
        return "heuristic", "heuristic"
    return lowest, Lowest()


def _cases():
    for game in BATCHED:
        for rules in RULES.get(game, [{}]):
            yield game, rules


@pytest.mark.parametrize(("game", "rules"), list(_cases()), ids=str)
@pytest.mark.parametrize("dense", [False, True])
def test_step_for_step_the_single_agent_env(game, rules, dense):
    """The same deals, learners and actions in SingleAgentEnv give the same observations, masks and rewards."""
    n = 6
    batched, scalar = _others(game)
    env = FamilyVectorEnv(n, game, others=batched, agent="random", seed=1, dense_reward=dense, **rules)
    obs, _ = env.reset(seed=1)
    scalars = [SingleAgentEnv(game, others=scalar, dense_reward=dense, **rules) for _ in range(n)]

    def start(i: int) -> np.ndarray:
        deal = env.batch.deal_of(i)
        options = {**(deal if isinstance(deal, dict) else {"hands": deal}), "dealer": int(env.batch.dealer[i])}
        options["agent"] = int(env.agents[i])
        got, _ = scalars[i].reset(seed=0, options=options)
        return got

    for i in range(n):
        assert np.array_equal(start(i), obs[i]), i
    rng = np.random.default_rng(2)
    episodes = 0
    for step in range(60):
        masks = env.action_masks()
        for i in range(n):
            assert np.array_equal(scalars[i].action_masks(), masks[i]), (step, i)
        actions = sample_mask(masks, rng)
        obs, rewards, terminated, _, infos = env.step(actions)
        for i in range(n):
            got, reward, done, _, _ = scalars[i].step(int(actions[i]))
            assert done == terminated[i], (step, i)
            assert np.isclose(reward, rewards[i], atol=1e-6), (step, i, reward, rewards[i])
            if done:
                episodes += 1
                assert np.array_equal(infos["final_obs"][i], got)
                assert np.array_equal(start(i), obs[i])
            else:
                assert np.array_equal(got, obs[i]), (step, i)
    assert episodes >= n


@pytest.mark.parametrize("game", MAKE_VEC)
def test_make_vec_is_the_batched_env_with_gym_make_s_defaults(game):
    gym_id = catalog.entry(game).gym_id
    env = gym.make_vec(gym_id, num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(env, FamilyVectorEnv) and env.num_envs == 8
    single = gym.make(gym_id).unwrapped
    assert single.agent_choice == env.agent_choice == "random" and env.others == "heuristic"
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40):
        mask = infos["action_mask"]
        assert mask.any(axis=1).all() and mask is env.action_masks()
        _, rewards, terminated, _, infos = env.step(sample_mask(mask, rng))
        assert (rewards[~terminated] == 0).all()
        ended += int(terminated.sum())
    assert ended >= 8


@pytest.mark.parametrize("game", BATCHED)
def test_matches_pay_the_winner(game):
    """A match to a target pays its winner (a game of stakes: each player his match total)."""
    rules = catalog.entry(game).make_rules()
    match = {"episode": "match", "target_score": 11}
    if getattr(rules, "match_end", "target") != "target":  # a chiamare: a match is rounds by default
        match["match_end"] = "target"
    stakes = isinstance(rules.game, StakeGame)
    env = FamilyVectorEnv(16, game, others="random", agent=0, seed=3, **match)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        _, rewards, terminated, _, infos = env.step(sample_mask(env.action_masks(), rng))
        if terminated.any():
            ended += int(terminated.sum())
            info = infos["final_info"]
            winner = info["winner"][terminated]
            assert (winner >= 0).all()
            if stakes:
                assert np.array_equal(rewards[terminated], info["match_score"][terminated, 0])
                assert (info["match_score"][terminated].max(axis=1) >= 11).all()
            else:
                assert np.array_equal(rewards[terminated] == 1.0, winner == 0)
        assert (rewards[~terminated] == 0).all()
    assert ended > 0


def test_a_callable_policy_and_its_mistakes():
    def first_legal(obs, mask):
        return mask.argmax(axis=1)

    env = FamilyVectorEnv(4, "tressette_col_morto", others=first_legal, seed=0)
    env.reset(seed=0)
    env.step(sample_mask(env.action_masks(), np.random.default_rng(0)))
    env = FamilyVectorEnv(4, "tressette_col_morto", others=lambda obs, mask: np.full(len(obs), 200), seed=0)
    with pytest.raises(ValueError, match="chose illegal action 200"):
        env.reset(seed=0)


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"others": "search"}, ValueError, "others are 'random', 'heuristic' or a batched policy"),
        ({"others": ("random", "heuristic")}, ValueError, "one policy for every other player"),
        ({"agent": 3}, ValueError, "agent must be a player 0..2 or 'random'"),
        ({"render_mode": "ansi"}, ValueError, "render_mode='ansi' is not supported"),
        ({"record": "x.jsonl"}, TypeError, "neither game records"),
        ({"dense_reward": True, "episode": "match"}, ValueError, 'dense_reward=True needs episode="hand"'),
    ],
)
def test_bad_keywords_are_named(keywords, error, message):
    with pytest.raises(error, match=message):
        gym.make_vec("tressette_env/TressetteColMorto-v0", num_envs=2, vectorization_mode="vector_entry_point",
                     **keywords)  # fmt: skip


def test_a_batched_engine_without_a_batched_heuristic_is_named(monkeypatch):
    assert all(hasattr(catalog.entry(game).batch_type(), "heuristic_actions") for game in BATCHED)  # every game's
    batch = catalog.entry("calabresella").batch_type()
    monkeypatch.delattr(batch, "heuristic_actions")  # as a game of one's own whose heuristic is not batched
    with pytest.raises(ValueError, match="calabresella's batched engine has no batched heuristic yet"):
        FamilyVectorEnv(2, "calabresella", others="heuristic")


def test_a_game_without_a_batched_engine_is_named():
    unbatched = [e for e in catalog.entries() if e.batch is None]
    with pytest.raises(ValueError, match="has no batched engine for FamilyVectorEnv; games with one: "):
        FamilyVectorEnv(2, unbatched[-1].name)
    own = next(e for e in unbatched if e.gym_vector_entry_point)  # the four-seat game's own vector env
    with pytest.raises(ValueError, match="own batched environment: gym.make_vec"):
        FamilyVectorEnv(2, own.name)


def test_players_who_leave_the_table_are_refused():
    with pytest.raises(ValueError, match="does not follow a learner who drops out yet"):
        FamilyVectorEnv(2, "tressette_a_perdere", others="random", episode="match", match_end="elimination")


def test_the_agent_reset_option_and_bad_options():
    env = FamilyVectorEnv(6, "tressette_col_morto", others="random", agent="random", seed=0)
    env.reset(seed=0, options={"agent": 2})
    assert (env.agents == 2).all() and (env.batch.agent == 2).all()
    with pytest.raises(ValueError, match="agent"):
        env.reset(options={"agent": 3})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"seat": 1})


def test_others_that_end_every_episode_before_the_learner_acts_are_stopped(monkeypatch):
    from tressette_env.vector import family_env

    env = FamilyVectorEnv(2, "tressette_in_due", others="random", agent=0, seed=0)
    env.reset(seed=0)

    class Ended:  # a step result in which every episode ended
        terminated = np.ones(2, dtype=bool)

    env._fresh[:] = True
    monkeypatch.setattr(family_env, "_REDEALS", 3)
    with pytest.raises(RuntimeError, match="ended 3 episodes in a row before the learner's first action"):
        for _ in range(5):
            env._collect(Ended(), np.zeros(2, np.float32), np.zeros(2, bool), {})


def test_sb3_vec_env_takes_it():
    pytest.importorskip("stable_baselines3")
    from tressette_env.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(FamilyVectorEnv(4, "tressette_col_morto", others="heuristic", seed=0))
    obs = venv.reset()
    assert obs.shape == (4, 999)
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (4, 255) and masks.any(axis=1).all()
    for _ in range(20):
        venv.step_async(sample_mask(venv.action_masks(), np.random.default_rng(0)))
        obs, rewards, dones, infos = venv.step_wait()
    assert dones.any() and "terminal_observation" in infos[int(np.flatnonzero(dones)[0])]


def test_the_batches_readers_refuse_bad_players_and_deals_and_the_heuristics_another_games_batch():
    from tressette_env.vector.a_chiamare_heuristic import heuristic_actions as a_chiamare_heuristic
    from tressette_env.vector.calabresella_heuristic import heuristic_actions as calabresella_heuristic

    batches = {game: catalog.entry(game).batch_type()(2, seed=0) for game in BATCHED}
    for batch in batches.values():
        p = batch.num_agents
        with pytest.raises(ValueError, match=rf"agents are players 0..{p - 1}; got 9"):
            batch.lead(np.array([9, 0]))
        with pytest.raises(ValueError, match=r"agents is one player .* per deal, shape \(2,\); got int64 \(3,\)"):
            batch.lead(np.zeros(3, dtype=np.int64))
        for deal in (-1, 2, 1.5, "x", True):
            with pytest.raises(ValueError, match=r"deal is an index 0..1; got"):
                batch.deal_of(deal)
    with pytest.raises(ValueError, match=r"deal is an index 0..1; got -1"):
        TressetteBatch(2, seed=0).deal_of(-1)
    with pytest.raises(TypeError, match="heuristic_actions plays a AChiamareBatch; got CalabresellaBatch"):
        a_chiamare_heuristic(batches["calabresella"])
    with pytest.raises(TypeError, match="heuristic_actions plays a CalabresellaBatch; got str"):
        calabresella_heuristic("batch")
