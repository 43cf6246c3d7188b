#!/usr/bin/env bash
# Speed before and after a refactoring, old and new runs alternated (docs/architecture.md's "no
# speed change" check of the layers redesign): the compiled engine against the C reference
# (benchmarks/fast_vs_c.py), the expert's rollouts a second (benchmarks/pimc_move_speed.py) and
# the pure engine (sequence bench). Usage:
#   experiments/layers_speed.sh OLD_REV PATH/TO/reference.c [ROUNDS]
# The old tree is checked out with `git worktree` under /tmp and removed at the end; each run
# prints one JSON line tagged old/new.
set -euo pipefail
cd "$(dirname "$0")/.."
old_rev=$1 csource=$2 rounds=${3:-3}
old=$(mktemp -d /tmp/layers_old.XXXX)
git worktree add -q --detach "$old" "$old_rev"
trap 'git worktree remove --force "$old"' EXIT
py=.venv/bin/python
pimc="pimc(rank='tuned', reading=8, margin=0, jack_weights=(2.2, 2.8))"
run() {  # tag, PYTHONPATH
    local tag=$1 path=$2
    PYTHONPATH=$path $py benchmarks/fast_vs_c.py --source "$csource" --rounds 1 --games 100000 \
        | $py -c "import json, sys; print(json.dumps(json.load(sys.stdin)))" | sed "s/^/$tag fast_vs_c /"
    PYTHONPATH=$path $py benchmarks/pimc_move_speed.py --rounds 1 --simulations 1000 --bots "$pimc" \
        | tail -1 | sed "s/^/$tag pimc_move_speed /"
    PYTHONPATH=$path $py -m sequence_game bench --players 2 --games 3000 --json \
        | tail -1 | sed "s/^/$tag bench /"
}
# compile both trees' kernels first (Numba's disk cache), outside the timed rounds
PYTHONPATH=$old/src $py -c "from sequence_game.bots import warm_up; warm_up('pimc')"
$py -c "from sequence_game.bots import warm_up; warm_up('pimc')"
for _ in $(seq "$rounds"); do
    run old "$old/src"
    run new src
done
