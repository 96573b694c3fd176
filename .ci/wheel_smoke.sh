#!/usr/bin/env bash
# The package as users install it: build the wheel, install it into a fresh venv outside the
# clone, and use it from / (no checkout on the path). Run by .ci/run after make test.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
WORK=$(mktemp -d /tmp/cnmahjong-smoke.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

"$PYTHON" -m pip wheel -q --no-deps -w "$WORK/dist" .
WHEEL=$(ls "$WORK"/dist/cnmahjong-*.whl)
case "$WHEEL" in *-py3-none-any.whl) echo "FAIL: a pure wheel ($WHEEL): the compiled path was dropped"; exit 1;; esac
"$PYTHON" -m venv "$WORK/v"
V="$WORK/v/bin"
"$V/pip" install -q torch==2.13.0            # the CPU build on this machine's disk
"$V/pip" install -q "$WHEEL[train]"
cd /
"$V/python" - <<'PY'
import numpy as np
import gymnasium
import pettingzoo
from pettingzoo.test import api_test

import cnmahjong
from cnmahjong import VectorEnv
from cnmahjong.envs.hotpath import status

assert "site-packages" in cnmahjong.__file__, cnmahjong.__file__
print("compiled:", cnmahjong.COMPILED, sorted(set(status().values())))
assert cnmahjong.COMPILED, status()
for name in ("changsha_mahjong_v0", "hangzhou_mahjong_v0"):
    api_test(getattr(cnmahjong, name).env(), num_cycles=300)
    pettingzoo.make("aec", name).reset(seed=0)
for env_id in cnmahjong.GYMNASIUM_IDS:
    env = gymnasium.make(env_id)
    obs, info = env.reset(seed=0)
    vec = gymnasium.make_vec(env_id, num_envs=2)
    vec.reset(seed=0)
for ruleset in ("changsha", "hangzhou"):
    venv = VectorEnv(num_tables=16, ruleset=ruleset, seed=1)
    batch, rng = venv.reset(), np.random.default_rng(0)
    while venv.hands_played < 200:
        batch = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.mask]))
    print(f"{ruleset}: {venv.hands_played} hands through VectorEnv, compiled={cnmahjong.COMPILED}")
PY
"$V/cnmahjong-train" --config selfplay_ppo --set max_minutes=0.2 --set run_dir="$WORK/run" \
    --set num_workers=1 --set tables_per_worker=8
"$V/cnmahjong-arena" --policies pretrained greedy greedy greedy --deals 20 --workers 1
"$V/cnmahjong-replay" --help > /dev/null
"$V/cnmahjong-play" --help > /dev/null
# a package named envs installed after ours (PyPI has one) neither hides nor is hidden by ours
"$V/pip" install -q envs
"$V/python" -c "import envs, cnmahjong.envs.changsha.game as g; print('PyPI envs:', envs.__file__); g.ChangshaGame(seed=0)"
"$V/pip" check
echo "wheel smoke test: ok ($(basename "$WHEEL"))"
