#!/bin/sh
# The table of docs/integrations/openspiel.md: OpenSpiel's ISMCTS or MCTS (50 simulations, one random rollout
# per leaf) against heuristic and random (a round robin: heuristic against random too), on duplicate boards.
# sh run.sh GAME BOT, e.g. sh run.sh tressette ismcts
set -e
game=$1
bot=$2
echo "\$ OMP_NUM_THREADS=1 tressette eval $bot:simulations=50 heuristic random --game $game --deals 4 --seed 0 --workers 1 --no-progress"
OMP_NUM_THREADS=1 tressette eval "$bot:simulations=50" heuristic random --game "$game" --deals 4 --seed 0 --workers 1 --no-progress
