"""RLlib: ``TressetteMultiAgentEnv`` against the AEC environment, RLlib's own checks, and the PPO recipe with two env runners.

Runs where ray[rllib] is installed (``.ci/run`` gives it a virtual environment of its own:
ray pins its own gymnasium); skipped elsewhere.
"""

import os
import random
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from tests.games.family import MODULES  # noqa: E402
from tressette_env.envs.playing import RenuncioWarning  # noqa: E402
from tressette_env.integrations.rllib import (  # noqa: E402
    TressetteMultiAgentEnv,
    check_env_config,
    policy_mapping,
    teams_of,
)
from tressette_env.records import read_records  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def play(env, seed, rng):
    """One episode with random legal actions: every step's returns, and the learners' decisions."""
    obs, infos = env.reset(seed=seed)
    steps, decisions = [], 0
    while True:
        turn = env.agent_on_turn
        assert turn in obs and turn in env.learners  # mid-episode: the learner to act (and any agent leaving)
        legal = obs[turn]["action_mask"].nonzero()[0]
        mask = env.aec.observe(turn)["action_mask"]
        assert np.array_equal(obs[turn]["action_mask"], mask.astype(np.float32))
        assert obs[turn]["observations"].dtype == np.float32
        assert env.observation_spaces[turn].contains(obs[turn])
        out = env.step({turn: int(rng.choice(legal))})
        decisions += 1
        steps.append(out)
        obs, _, terminateds, truncateds, _ = out
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps, decisions
        leaving = [a for a in obs if a != env.agent_on_turn]
        assert all(terminateds[a] for a in leaving)  # only an agent put out of the match, with its last observation


def returns_of(env):
    """Each learner's return of the episode just played, from the engine."""
    p = env.aec.game.public
    returns = p.rules.game.returns(p)
    return {agent: returns[i] for i, agent in enumerate(env.possible_agents)}


def paid_in(steps):
    """What the steps paid each agent, in all."""
    paid = {}
    for _, rewards, _, _, _ in steps:
        for agent, reward in rewards.items():
            paid[agent] = paid.get(agent, 0.0) + reward
    return paid


@pytest.mark.parametrize("game", list(MODULES))
def test_every_learner_gets_its_return_from_the_aec_environment(game):
    env = TressetteMultiAgentEnv({"game": game, "rules": {"episode": "match", "target_score": 11}
                                  if game not in ("calabresella", "tressette_a_chiamare") else {}, "others": "random"})  # fmt: skip
    rng = random.Random(0)
    for seed in range(3):
        steps, _ = play(env, seed, rng)
        assert paid_in(steps) == returns_of(env)
        last_obs, _, terminateds, _, _ = steps[-1]
        assert set(last_obs) <= set(env.agents) and terminateds["__all__"]


@pytest.mark.parametrize("game", ["tressette", "tressette_col_morto", "calabresella"])
def test_the_other_agents_are_played_inside_the_environment(game, tmp_path):
    agents = list(MODULES[game].raw_env().possible_agents)
    path = tmp_path / "r.jsonl"
    env = TressetteMultiAgentEnv({"game": game, "learners": agents[:1], "others": "heuristic", "record": path})
    rng = random.Random(1)
    counts = []
    for seed in range(3):
        _, decisions = play(env, seed, rng)
        counts.append((decisions, env.aec.game.public.table.controllers))
    assert env.possible_agents == agents[:1] and list(env.observation_spaces) == agents[:1]
    for record, (decisions, controllers) in zip(read_records(path), counts, strict=True):
        actions = record["hands"][0]["actions"]
        assert "result" in record["hands"][0] and len(actions) > decisions  # the others played, to the end
        assert decisions == sum(1 for seat, *_ in actions if controllers[seat] == 0)  # agent 0: the learner


def test_a_team_learns_and_the_heuristic_plays_the_other_team():
    env = TressetteMultiAgentEnv({"learners": ["player_0", "player_2"], "others": "heuristic"})
    rng = random.Random(2)
    for seed in range(5):
        steps, decisions = play(env, seed, rng)
        assert decisions == 20  # ten tricks, two learners
        final = steps[-1][1]
        assert final["player_0"] == final["player_2"] and set(final) == {"player_0", "player_2"}


def test_an_elimination_match_lets_a_learner_leave_with_its_standing():
    env = TressetteMultiAgentEnv({"game": "tressette_a_perdere", "others": "random",
                                  "rules": {"players": 4, "episode": "match", "match_end": "elimination", "target_score": 11}})  # fmt: skip
    rng = random.Random(3)
    left_early = 0
    for seed in range(4):
        steps, _ = play(env, seed, rng)
        for obs, _, terminateds, _, _ in steps[:-1]:
            left_early += sum(1 for a in obs if terminateds.get(a))
    assert left_early > 0


@pytest.mark.parametrize("game", ["tressette", "tressette_col_morto", "calabresella", "tressette_a_perdere"])
def test_dense_rewards_add_up_to_the_hands_result(game):
    env = TressetteMultiAgentEnv({"game": game, "others": "random", "dense_reward": True})
    rng = random.Random(4)
    mid_hand = 0
    for seed in range(4):
        steps, _ = play(env, seed, rng)
        mid_hand += sum(r != 0 and not done.get(a, False) for _, rs, done, _, _ in steps for a, r in rs.items())
        assert paid_in(steps) == pytest.approx(returns_of(env))
    assert mid_hand > 0
    with pytest.raises(ValueError, match='dense_reward needs episode="hand"'):
        TressetteMultiAgentEnv({"dense_reward": True, "rules": {"episode": "match"}})


def test_max_cycles_truncates_every_learner():
    env = TressetteMultiAgentEnv({"max_cycles": 3, "others": "random"})
    steps, decisions = play(env, 0, random.Random(0))
    obs, _, terminateds, truncateds, _ = steps[-1]
    assert truncateds["__all__"] and not terminateds["__all__"] and decisions == 12 and all(truncateds[a] for a in obs)


@pytest.mark.parametrize("game", ["tressette", "calabresella"])
def test_the_history_observation_and_a_player_that_reads_it(game):
    from tressette_env.encoders import observation_of
    from tressette_env.integrations.rllib import RLModulePlayer

    env = TressetteMultiAgentEnv({"game": game, "history": True, "others": "random"})
    size = observation_of(env.rules, history=True).size
    assert env.observation_spaces[env.possible_agents[0]]["observations"].shape == (size,)
    steps, _ = play(env, 1, random.Random(1))
    assert steps

    class Module:  # stands for an RLModule: the logits favour the highest action id, and it sees the input size
        action_space = env.action_spaces[env.possible_agents[0]]
        sizes: list[int] = []

        def forward_inference(self, batch):
            import torch

            self.sizes.append(batch["obs"]["observations"].shape[1])
            return {"action_dist_inputs": torch.arange(self.action_space.n, dtype=torch.float32)[None]}

    module = Module()
    player = RLModulePlayer(module, history=True)
    aec = MODULES[game].raw_env()
    aec.reset(seed=0)
    agent = aec.agent_selection
    legal = aec.observe(agent)["action_mask"].nonzero()[0].tolist()
    assert player.act(aec.view(agent), legal, random.Random(0)) == max(legal)
    assert len(legal) > 1 and module.sizes == [size]


@pytest.mark.parametrize("game", list(MODULES))
def test_rllibs_environment_check_passes(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RenuncioWarning)  # the check sends unmasked random actions: renuncios
        check_multiagent_environments(TressetteMultiAgentEnv({"game": game, "others": "random"}))


@pytest.mark.parametrize("config, message", [
    ({"opponents": "random"}, r"unknown env_config key\(s\) \['opponents'\]; the keys are \['game', 'rules', 'learners'"),
    (["learners"], "env_config is None or a dict"),
    ({"learners": ["player_9"]}, "learners must be distinct agents among"),
    ({"learners": ["player_0", "player_0"]}, "learners must be distinct agents among"),
    ({"learners": []}, r"'learners'\] is empty: list at least one agent .* or omit the key \(or give None\) for every agent"),
    ({"learners": "player_0"}, r"'learners'\] is None \(every agent\) or a list of agents"),
    ({"learners": ["player_0"], "others": {"player_1": "random"}}, "one player spec for each agent RLlib does not act for"),
    ({"others": "grandmaster", "learners": ["player_0"]}, "grandmaster"),
    ({"others": "grandmaster"}, "unknown player 'grandmaster'"),  # every agent learns: others unused, still checked
    ({"others": "random:speed=3"}, "bad options for player 'random'"),
    ({"others": {"player_1": "random"}}, r"one player spec for each agent RLlib does not act for, \[\]"),
    ({"others": 5}, r"'others'\] is one player spec"),
    ({"learners": ["player_0"], "others": {"player_1": "random", "player_2": 7, "player_3": "random"}},
     r"'others'\]\['player_2'\] is one player spec"),
    ({"dense_reward": "yes"}, r"'dense_reward'\] is True or False; got 'yes' \(str\)"),
    ({"dense_reward": 1}, r"'dense_reward'\] is True or False; got 1 \(int\)"),
    ({"history": "no"}, r"'history'\] is True or False"),
    ({"max_cycles": 0}, r"'max_cycles'\] is None \(no limit\) or an int >= 1"),
    ({"max_cycles": True}, r"'max_cycles'\] is None \(no limit\) or an int >= 1"),
    ({"max_cycles": "5"}, r"'max_cycles'\] is None \(no limit\) or an int >= 1"),
    ({"others": "human", "learners": ["player_0"]}, "'human' plays at a terminal"),
    ({"others": "human"}, "'human' plays at a terminal"),
    ({"learners": ["player_0"], "others": {"player_1": "random", "player_2": "human", "player_3": "random"}},
     r"'others'\]\['player_2'\]: 'human' plays at a terminal"),
    ({"record": "/no/such/folder/r.jsonl"}, "does not exist"),
    ({"game": "poker"}, "poker"),
    ({"game": ["tressette"]}, r"'game'\] is a game's name"),
    ({"rules": {"accusi": "maybe"}}, "accusi"),
    ({"rules": {"max_cycles": 3}}, "unknown rule switch 'max_cycles'"),
    ({"rules": ["episode", "match"]}, r"'rules'\] is None or a dict of the game's rule switches"),
])  # fmt: skip
def test_a_bad_env_config_is_named(config, message):
    with pytest.raises((ValueError, TypeError), match=message) as raised:
        TressetteMultiAgentEnv(config)
    assert "\n" not in str(raised.value)  # one line: what was wrong and what is allowed


def test_the_whole_env_config_is_checked_before_anything_is_built(tmp_path):
    path = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match="grandmaster"):  # others checked, though no agent needs it
        TressetteMultiAgentEnv({"record": path, "others": "grandmaster"})
    with pytest.raises(TypeError, match="dense_reward"):
        TressetteMultiAgentEnv({"record": path, "dense_reward": "yes", "others": "random", "learners": ["player_0"]})
    assert not path.exists()
    checked = check_env_config({"learners": ("player_0",), "others": "random", "rules": None})
    assert checked["learners"] == ["player_0"] and sorted(checked["others"]) == ["player_1", "player_2", "player_3"]
    assert checked["rules"] == {} and checked["dense_reward"] is False and checked["history"] is False
    assert check_env_config(None)["learners"] == ["player_0", "player_1", "player_2", "player_3"]


def test_an_action_for_an_agent_not_on_turn_is_refused_and_nothing_is_played():
    env = TressetteMultiAgentEnv({"learners": ["player_0", "player_2"], "others": "random"})
    obs, _ = env.reset(seed=0)
    turn = env.agent_on_turn
    other = next(a for a in env.learners if a != turn)
    legal = int(obs[turn]["action_mask"].nonzero()[0][0])
    game = env.aec.game
    for actions in ({turn: legal, other: legal}, {other: legal}, {turn: legal, "player_1": legal}):
        stranger = re.escape(", ".join(repr(a) for a in sorted(set(actions) - {turn})))
        with pytest.raises(ValueError, match=rf"actions for {stranger}, not on turn: only {turn} is on turn"):
            env.step(actions)
        assert env.aec.game is game and env.agent_on_turn == turn  # nothing played
    with pytest.raises(TypeError, match="action_dict is a dict"):
        env.step(legal)
    env.step({turn: legal})
    assert env.aec.game is not game


def test_reset_takes_a_numpy_seed_and_refuses_a_bool():
    env = TressetteMultiAgentEnv({"others": "random"})
    first, _ = env.reset(seed=np.int64(7))
    again, _ = env.reset(seed=7)
    turn = env.agent_on_turn
    assert list(first) == list(again) == [turn]
    assert np.array_equal(first[turn]["observations"], again[turn]["observations"])
    game = env.aec.game
    for seed, error in ((True, TypeError), (-1, ValueError), (1.0, TypeError)):
        with pytest.raises(error, match="seed is None or a non-negative integer"):
            env.reset(seed=seed)
        assert env.aec.game is game and env.agent_on_turn == turn  # a bad seed changes nothing


def test_policy_mappings():
    assert teams_of("tressette") == {
        "player_0": "team_0",
        "player_1": "team_1",
        "player_2": "team_0",
        "player_3": "team_1",
    }
    assert policy_mapping("team")("player_3") == "team_1" and policy_mapping("shared")("player_3") == "shared"
    assert policy_mapping("seat")("player_3") == "player_3"
    for game in ("tressette_col_morto", "calabresella", "tressette_a_chiamare", "tressette_a_perdere"):
        with pytest.raises(ValueError, match="no fixed teams"):
            policy_mapping("team", game)
    with pytest.raises(ValueError, match="one of shared, team, seat"):
        policy_mapping("pairs")
    with pytest.raises(ValueError, match=r"tressette's agents are \['player_0', .*\]; got 'player_4'"):
        policy_mapping("team")("player_4")  # (a KeyError)


def test_a_model_file_named_human_is_no_terminal(tmp_path):
    import shutil

    from tressette_env.learned.loading import shipped_model_path

    model = tmp_path / "human.npz"  # its player's name is the file's: "human"
    shutil.copy(shipped_model_path("tressette"), model)
    checked = check_env_config({"learners": ["player_0", "player_2"], "others": str(model)})
    assert checked["others"]["player_1"].name == "human"


def test_errors_name_what_was_wrong_in_the_callers_words():
    from tressette_env.integrations.rllib import batched_env

    with pytest.raises(TypeError, match=r"max_cycles'\] is None \(no limit\) or an int >= 1; got '5'"):
        TressetteMultiAgentEnv({"max_cycles": "5"})  # a wrong type: TypeError, as the docstring says
    with pytest.raises(TypeError, match="config is None or a dict"):
        batched_env("tressette")  # (dict()'s "update sequence element" error)
    with pytest.raises(ValueError, match=r"seat must be a seat 0..3 or 'random' \(gym.make's keyword\); got 7"):
        batched_env({"seat": 7})  # (it named learner_seat, a keyword the caller never gave)


def test_a_module_trained_on_another_observation_or_game_is_named():
    torch = pytest.importorskip("torch")
    from gymnasium import spaces

    from tressette_env.engine import legal_actions, new_game, view
    from tressette_env.integrations.rllib import RLModulePlayer

    class Module:  # what RLModulePlayer reads of an RLModule: its spaces and forward_inference
        def __init__(self, size, actions):
            self.observation_space = spaces.Dict({"observations": spaces.Box(0, 1, (size,)),
                                                  "action_mask": spaces.Box(0, 1, (actions,))})  # fmt: skip
            self.action_space = spaces.Discrete(actions)

        def forward_inference(self, batch):
            return {"action_dist_inputs": torch.zeros((1, self.action_space.n))}

    state = new_game(seed=0)
    seen, legal = view(state, state.public.turn), legal_actions(state)
    assert RLModulePlayer(Module(790, 161)).act(seen, legal, None) in legal
    odd = Module(790, 161)
    odd.observation_space = spaces.Tuple([spaces.Discrete(2)])  # not the env's dict: not checked (it was a crash)
    assert RLModulePlayer(odd).act(seen, legal, None) in legal
    with pytest.raises(
        ValueError,
        match=r"the module reads 1460 observation entries; tressette's observation here has 790 \(history=True reads 1460",
    ):
        RLModulePlayer(Module(1460, 161)).act(seen, legal, None)
    with pytest.raises(
        ValueError,
        match=r"reads 790 observation entries; tressette's history observation here has 1460 \(history=False",
    ):
        RLModulePlayer(Module(790, 161), history=True).act(seen, legal, None)
    from tressette_env import catalog

    calabresella = new_game(catalog.entry("calabresella").make_rules(), seed=0)
    seen, legal = view(calabresella, calabresella.public.turn), legal_actions(calabresella)
    with pytest.raises(ValueError, match="observation entries; calabresella's observation here has"):
        RLModulePlayer(Module(790, 161)).act(seen, legal, None)


@pytest.fixture(autouse=True)
def _no_ray_address(monkeypatch):
    """The recipe reads ``RAY_ADDRESS`` as ``--address``: one set where the tests run would send them to a cluster."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


def _example():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import rllib_ppo
    finally:
        sys.path.remove(str(EXAMPLES))
    return rllib_ppo


def test_the_ppo_recipe_trains_with_two_env_runners_and_plays_the_duplicate_evaluation(capsys):
    rllib_ppo = _example()
    figures = rllib_ppo.main(["--iterations", "2", "--batch", "400", "--boards", "4", "--env-runners", "2"])
    printed = capsys.readouterr().out
    runners, envs = 2, rllib_ppo.ENVS_PER_RUNNER
    steps = [int(n) for n in re.findall(r"iteration +\d+  env steps +(\d+)", printed)]
    assert len(steps) == 2 and 400 <= steps[0] < 400 + runners * envs and steps[1] >= 2 * 400  # batches of 400 or more
    assert f"({runners} runners x {envs} environments)" in printed and "| heuristic |" in printed
    assert set(figures) == {"random", "heuristic"} and all(r.boards == 4 for r in figures.values())


def test_the_ppo_recipe_trains_on_the_batched_engine_and_its_module_plays_the_evaluation(capsys):
    """``--batched N``: RLlib's single-agent runners step N deals of the batched engine (``batched_env``)."""
    figures = _example().main(
        ["--batched", "16", "--others", "heuristic", "--iterations", "2", "--batch", "320", "--boards", "2",
         "--env-runners", "1"]
    )  # fmt: skip
    printed = capsys.readouterr().out
    steps = [int(n) for n in re.findall(r"iteration +\d+  env steps +(\d+)", printed)]
    assert len(steps) == 2 and steps[0] >= 320 and steps[1] >= 640
    assert "(1 runner x 16 batched deals)" in printed and "duplicate evaluation of module 'default_policy'" in printed
    assert set(figures) == {"random", "heuristic"} and all(r.boards == 2 for r in figures.values())


@pytest.mark.parametrize(
    "argv",
    [["--batched", "8", "--game", "calabresella"], ["--batched", "8", "--others", "search"],
     ["--batched", "8", "--mapping", "team"]],
)  # fmt: skip
def test_the_batched_recipe_refuses_what_the_batched_engine_cannot_play_before_ray_starts(argv, capsys):
    with pytest.raises(SystemExit):
        _example().main(argv)
    assert "--batched: the four-seat game" in capsys.readouterr().err


def test_the_batched_engine_through_rllibs_own_runner_samples_whole_hands():
    """``batched_env`` as RLlib's ``SingleAgentEnvRunner`` builds it: each finished episode is one hand, ten decisions."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from tressette_env.integrations.rllib import register_batched_env

    config = (
        PPOConfig()
        .environment(register_batched_env(), env_config={"opponents": "heuristic"})
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .env_runners(num_env_runners=0, num_envs_per_env_runner=8, gym_env_vectorize_mode="vector_entry_point")
    )
    runner = SingleAgentEnvRunner(config=config)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RenuncioWarning)  # the module acts within the masks: no renuncio
        episodes = runner.sample(num_timesteps=400, random_actions=False)
    done = [e for e in episodes if e.is_done]
    assert len(done) >= 16
    for episode in done:
        assert len(episode) == 10 and episode.is_terminated
        assert not np.any(episode.get_rewards()[:-1])  # sparse by default: the hand's result at its end only
        masks = np.asarray(episode.get_observations()["action_mask"])
        assert masks[:-1].any(axis=1).all() and not masks[-1].any()  # every decision has a legal card; the end none
    runner.stop()


def test_the_recipe_starts_a_ray_of_its_own_unless_given_a_cluster(monkeypatch):
    """No ``--address``: ``address="local"``, a Ray of its own (Ray's default address joins the last ``ray start``
    cluster of the machine, whose address file outlives it, and refuses ``num_cpus`` there); ``RAY_ADDRESS`` names
    a cluster as ``--address`` does, and ``local`` in either is a Ray of its own."""
    rllib_ppo = _example()
    calls = []

    class Stop(Exception):
        pass

    def init(**kwargs):
        calls.append(kwargs)
        raise Stop

    monkeypatch.setattr(rllib_ppo.ray, "init", init)
    for argv, environ in (([], None), (["--address", "10.0.0.1:6379"], None), ([], "10.0.0.2:6379"),
                          (["--address", "10.0.0.1:6379"], "10.0.0.2:6379"), ([], "local"),
                          (["--address", "local"], None)):  # fmt: skip
        if environ:
            monkeypatch.setenv("RAY_ADDRESS", environ)
        else:
            monkeypatch.delenv("RAY_ADDRESS", raising=False)
        with pytest.raises(Stop):
            rllib_ppo.main(argv)
    addresses = [call.get("address") for call in calls]
    assert addresses == ["local", "10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.1:6379", "local", "local"]
    own = [call for call in calls if call["address"] == "local"]
    assert all(call["num_cpus"] >= 3 and call["include_dashboard"] is False for call in own)


def _ray_node(ray_cli, args, env, log):
    """``ray start --block`` in a session of its own: stopped by it, not by ``ray stop``, which stops every Ray of
    this machine's user (another test run's too). Where util-linux's ``setpriv`` is, the node gets SIGTERM when
    pytest's process dies before its ``finally`` (``--pdeathsig``; no ``preexec_fn``, unsafe beside threads)."""
    import shutil
    import subprocess

    setpriv = shutil.which("setpriv")
    command = [ray_cli, "start", "--block", "--disable-usage-stats", *args]
    return subprocess.Popen(([setpriv, "--pdeathsig", "TERM"] if setpriv else []) + command, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def _exited(node):
    """Whether the node's ``ray start`` has ended, without reaping it: while it is an unreaped child, its pid (the
    session's id) cannot be another process's, so ``_stop_ray_node``'s scan kills only the node's processes."""
    return os.waitid(os.P_PID, node.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _zombie(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def _stop_ray_node(node):
    """SIGTERM to ``ray start``, which stops its node's processes in order; then SIGKILL to what is left of its
    session (Ray's workers and agents have process groups of their own, in the node's session), until none is."""
    import signal
    import time

    if not _exited(node):
        os.kill(node.pid, signal.SIGTERM)  # (not Popen.terminate, which may reap it first)
    deadline = time.monotonic() + 60
    while not _exited(node) and time.monotonic() < deadline:
        time.sleep(0.2)
    for _ in range(20):  # passes: a process may fork while one is read
        left = []
        for pid in [int(name) for name in os.listdir("/proc") if name.isdigit()]:
            try:
                if os.getsid(pid) == node.pid and pid != node.pid and not _zombie(pid):
                    os.kill(pid, signal.SIGKILL)
                    left.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        if not left and _exited(node):
            break
        if not _exited(node):
            os.kill(node.pid, signal.SIGKILL)
        time.sleep(0.2)
    node.wait(timeout=30)


def _alive_nodes(address, env):
    """The nodes alive in the cluster at ``address`` ("" while it cannot be reached), and the probe's stderr."""
    import subprocess

    probe = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='error', log_to_driver=False); "
             "print(sum(n['Alive'] for n in ray.nodes()))")  # fmt: skip
    try:
        run = subprocess.run([sys.executable, "-c", probe, address], capture_output=True, text=True, timeout=120,
                             env=env)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "", "the probe ran past 120 s"
    lines = run.stdout.split()
    return (lines[-1] if lines else ""), run.stderr[-2000:]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="stops its nodes through /proc and os.waitid")
def test_the_ppo_recipe_trains_on_a_cluster_of_a_head_and_a_worker_node():
    """``--address``: a head node and a worker node started with ``ray start`` (on loopback), as on a real cluster;
    then, with that cluster still up, the recipe without ``--address`` trains on a Ray of its own.

    The nodes and the driver share one token (``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN``): Ray 2.60's ``ray
    start --head`` turns token authentication on by itself when ``~/.ray/auth_token`` exists, and a driver
    without the token then cannot connect. The driver is a process of its own, so no Ray state of this one
    (an earlier test's local cluster) is in its way. Ray's files (its sessions and the address file that
    ``ray start`` writes and Ray's default address reads) go to a folder of this test's own (``RAY_TMPDIR``),
    removed at the end: nothing is left for another run on the machine to join.
    """
    import secrets
    import shutil
    import socket
    import subprocess
    import tempfile
    import time

    ray_cli = str(Path(sys.executable).with_name("ray"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ray_tmp = tempfile.mkdtemp(prefix="ray-test-", dir="/tmp")  # short: Ray's socket paths are under it
    # (os.environ holds no RAY_ADDRESS: the fixture above took it out)
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32), "RAY_TMPDIR": ray_tmp,
           "RAY_raylet_start_wait_time_s": "120", "OMP_NUM_THREADS": "1"}  # fmt: skip
    nodes, log_path = [], Path(ray_tmp) / "nodes.log"
    try:
        with open(log_path, "w") as log:
            nodes.append(_ray_node(ray_cli, ["--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false"],
                                   env, log))  # fmt: skip
            nodes.append(_ray_node(ray_cli, [f"--address=127.0.0.1:{port}", "--num-cpus=2"], env, log))
        deadline, alive, probed = time.monotonic() + 240, "", ""
        while alive != "2" and time.monotonic() < deadline and not any(_exited(node) for node in nodes):
            time.sleep(2)
            alive, probed = _alive_nodes(f"127.0.0.1:{port}", env)  # both nodes registered
        assert alive == "2", f"nodes alive: {alive!r}\n{probed}\n{log_path.read_text()[-3000:]}"
        run = subprocess.run(
            [sys.executable, str(EXAMPLES / "rllib_ppo.py"), "--address", f"127.0.0.1:{port}", "--iterations",
             "1", "--batch", "400", "--boards", "2", "--env-runners", "2", "--envs-per-runner", "4"],
            capture_output=True, text=True, timeout=600, env=env,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-3000:]
        assert f"Ray cluster at 127.0.0.1:{port}: 2 node(s), 3 CPUs" in run.stdout
        assert "iteration   1  env steps     400" in run.stdout and "(2 runners x 4 environments)" in run.stdout
        assert "| heuristic |" in run.stdout
        # Ray's default address would join the cluster above (ray start wrote its address file) and refuse
        # num_cpus ("When connecting to an existing cluster, num_cpus and num_gpus must not be provided")
        assert (Path(ray_tmp) / "ray" / "ray_current_cluster").exists()
        local = subprocess.run(
            [sys.executable, str(EXAMPLES / "rllib_ppo.py"), "--iterations", "1", "--batch", "200", "--boards",
             "2", "--env-runners", "1", "--envs-per-runner", "4"],
            capture_output=True, text=True, timeout=600, env=env,
        )  # fmt: skip
        assert local.returncode == 0, local.stderr[-3000:]
        assert "Ray cluster at" not in local.stdout and "(1 runner x 4 environments)" in local.stdout
        assert not any(_exited(node) for node in nodes)  # the recipe's ray.shutdown left the cluster up
    finally:
        try:
            for node in reversed(nodes):
                try:
                    _stop_ray_node(node)
                except Exception as error:  # (the other node is stopped all the same)
                    print(f"stopping a Ray node: {error!r}", file=sys.stderr)
        finally:
            shutil.rmtree(ray_tmp, ignore_errors=True)


@pytest.mark.parametrize(
    "config",
    [
        {"dense_reward": "x" * 10**6},
        {"learners": ["x" * 10**6]},
        {"others": 10**5000},
        {"game": 10**5000},
        {"record": "/nonexistent/" + "x" * 10**6},
        {"rules": {"episode": "x" * 10**5}},
    ],
    ids=["dense_reward", "learners", "others", "game", "record", "rules"],
)
def test_a_huge_bad_value_gets_a_short_error(config):
    with pytest.raises((ValueError, TypeError)) as raised:
        TressetteMultiAgentEnv(config)
    assert len(str(raised.value)) < 400 and "\n" not in str(raised.value)


def test_a_huge_action_dict_gets_a_short_error():
    env = TressetteMultiAgentEnv({"others": "random"})
    env.reset(seed=0)
    for actions in ({"x" * 10**6: 1}, ["x" * 10**6], {f"a{i}": 0 for i in range(10**4)}):
        with pytest.raises((ValueError, TypeError)) as raised:
            env.step(actions)
        assert len(str(raised.value)) < 400


@pytest.mark.parametrize("game", ["tressette_col_morto", "tressette_a_chiamare"])
def test_a_family_games_batched_engine_through_rllibs_own_runner(game):
    """``batched_env`` with ``game``: RLlib's ``SingleAgentEnvRunner`` steps ``FamilyVectorEnv``, episodes end with a hand."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from tressette_env.integrations.rllib import register_batched_env

    config = (
        PPOConfig()
        .environment(register_batched_env(), env_config={"game": game, "others": "heuristic"})
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .env_runners(num_env_runners=0, num_envs_per_env_runner=8, gym_env_vectorize_mode="vector_entry_point")
    )
    runner = SingleAgentEnvRunner(config=config)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RenuncioWarning)  # the module acts within the masks: no renuncio
        episodes = runner.sample(num_timesteps=400, random_actions=False)
    done = [e for e in episodes if e.is_done]
    assert len(done) >= 8
    for episode in done:
        assert episode.is_terminated and not np.any(episode.get_rewards()[:-1])  # the hand's result at its end
        masks = np.asarray(episode.get_observations()["action_mask"])
        assert masks[:-1].any(axis=1).all() and not masks[-1].any()
    runner.stop()
