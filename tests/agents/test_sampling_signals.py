"""The deal sampler reads the striscio switch: a narrow striscio says the leader kept no 3, 2 or asso."""

import random

from tests.helpers import fill, play
from tressette_env.agents.sampling import DealSampler
from tressette_env.engine import Rules, new_game, view
from tressette_env.engine.cards import HONOURS


def test_a_narrow_striscio_keeps_the_honours_out_of_the_signaller_hand():
    # Seat 1 leads the 7 di coppe with striscio keeping 5c 4c; the honours of coppe are elsewhere.
    deal = fill(seat_1="7c 5c 4c 6s 5s 4s 7b 6b 5b 4b", seat_3="Ac 2c 3c")
    for striscio, may_hold in (("keeps_suit", True), ("no_honours", False)):
        state = play(new_game(Rules(striscio=striscio, accusi=False), hands=deal, dealer=0), "7c striscio")
        sampler = DealSampler(view(state, 2))
        rng = random.Random(0)
        held = [sampler.sample(rng)[1] & HONOURS[1] for _ in range(200)]
        assert any(held) == may_hold, striscio
