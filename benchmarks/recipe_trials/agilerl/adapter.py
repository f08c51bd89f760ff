"""A ~25-line adapter: tressette_env's parallel env in AgileRL's shape.

AgileRL (2.58) reads action masks only from ``info[agent]["action_mask"]`` and asserts that no
"action_mask" key is in the observation; so the observation becomes the flat "observation"
vector and the mask moves into the info dict (also after reset).
"""

from pettingzoo.utils.env import ParallelEnv


class MaskInInfo(ParallelEnv):
    def __init__(self, env):
        self.env = env
        self.metadata = env.metadata
        self.possible_agents = env.possible_agents
        self.render_mode = getattr(env, "render_mode", None)
        self.illegal_actions = 0  # diagnostics only: actions that the env's own current mask forbids
        self._masks = {}

    @property
    def agents(self):
        return self.env.agents

    def observation_space(self, agent):
        return self.env.observation_space(agent)["observation"]

    def action_space(self, agent):
        return self.env.action_space(agent)

    def _split(self, obs, infos):
        self._masks = {a: o["action_mask"] for a, o in obs.items()}
        infos = {a: dict(infos.get(a, {}), action_mask=o["action_mask"]) for a, o in obs.items()}
        return {a: o["observation"] for a, o in obs.items()}, infos

    def reset(self, seed=None, options=None):
        return self._split(*self.env.reset(seed=seed, options=options))

    def step(self, actions):
        self.illegal_actions += sum(not self._masks[a][int(act)] for a, act in actions.items() if a in self._masks)
        obs, rew, term, trunc, infos = self.env.step(actions)
        obs, infos = self._split(obs, infos)
        return obs, rew, term, trunc, infos

    def render(self):
        return self.env.render()

    def close(self):
        self.env.close()

    def state(self):
        return self.env.state()


class MaskInInfoEagerReset(MaskInInfo):
    """For agilerl.vector.PzDummyVecEnv, whose auto-reset drops the reset's info (so the next step would
    see the last step's WAIT-only masks): at the end of a hand, deal the next one at once, return its
    masks in the last step's infos, and hand the same deal to the reset() that follows."""

    _pending = None

    def reset(self, seed=None, options=None):
        if self._pending is not None and seed is None and options is None:
            out, self._pending = self._pending, None
            return out
        self._pending = None
        return super().reset(seed=seed, options=options)

    def step(self, actions):
        obs, rew, term, trunc, infos = super().step(actions)
        if all(term[a] or trunc[a] for a in term):
            self._pending = super().reset()
            infos = {
                a: dict(infos.get(a, {}), action_mask=m)
                for a, m in ((a, i["action_mask"]) for a, i in self._pending[1].items())
            }
        return obs, rew, term, trunc, infos


class LegalInObs(MaskInInfo):
    """Variant for masks in the learn step too: the observation stays a Dict, its mask renamed "legal"
    (AgileRL asserts that no observation key is called "action_mask"); no mask in the info. Use it with
    patch_stochastic_actor(), which makes the actor read obs["legal"] whenever no action_mask is passed
    (as IPPO.learn does), so acting and learning use the same masked distribution."""

    def observation_space(self, agent):
        from gymnasium import spaces

        s = self.env.observation_space(agent)
        return spaces.Dict({"observation": s["observation"], "legal": s["action_mask"]})

    def _split(self, obs, infos):
        self._masks = {a: o["action_mask"] for a, o in obs.items()}
        return {a: {"observation": o["observation"], "legal": o["action_mask"]} for a, o in obs.items()}, infos


def patch_stochastic_actor():
    from agilerl.networks.actors import StochasticActor

    forward = StochasticActor.forward
    if getattr(forward, "_legal_patched", False):
        return

    def masked_forward(self, obs, action_mask=None):
        if action_mask is None and isinstance(obs, dict) and "legal" in obs:
            action_mask = obs["legal"] > 0.5
        return forward(self, obs, action_mask)

    masked_forward._legal_patched = True
    StochasticActor.forward = masked_forward
