"""Environment builders shared by the training tests."""

from tressette_env.wrappers import SingleSeatEnv


def make_env(seed):
    """A builder (for SB3's VecEnvs) of a seeded single-seat environment with random partner and opponents."""

    def build():
        env = SingleSeatEnv(opponents="random", partner="random")
        env.reset(seed=seed)
        return env

    return build
