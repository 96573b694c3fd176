"""TorchRL (0.14): ``PettingZooWrapper(env=..., use_mask=True)`` on both rulesets with no glue
(TorchRL's own ``check_env_specs``, masked rollouts, every seat's settlement, ``return_state``),
and the recipe ``examples/torchrl_ppo.py``."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from torchrl.envs import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType, check_env_specs

from cnmahjong.envs.changsha import actions as cs_actions
from cnmahjong.envs.changsha.env import env as cs_env
from cnmahjong.envs.changsha.env import raw_env as cs_raw_env
from cnmahjong.envs.hangzhou import actions as hz_actions
from cnmahjong.envs.hangzhou.env import env as hz_env
from cnmahjong.envs.hangzhou.env import raw_env as hz_raw_env

pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")  # any version but 1.24.3
ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "examples" / "torchrl_ppo.py"
SEATS = 4
RULESETS = {  # name: (env(), raw_env, planes, actions, state, PASS)
    "changsha": (cs_env, cs_raw_env, (119, 27), 99, (557, 27), cs_actions.PASS),
    "hangzhou": (hz_env, hz_raw_env, (145, 34), 75, (663, 34), hz_actions.PASS),
}
GROUPS = ("agents", *(f"player_{i}" for i in range(SEATS)))  # one group, or one per seat
SCALE = 4.0  # a power of two: every reward p / SCALE is exact in float32, so sums compare exactly


@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread (on a small shared machine more only adds contention)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def wrapped(rules: str, raw: bool = False, box: bool = False, **kwargs) -> tuple[PettingZooWrapper, object]:
    """TorchRL's wrapper exactly as its docs give it for AEC envs, and the cnmahjong env inside."""
    make_env, make_raw = RULESETS[rules][:2]
    pz = (make_raw if raw else make_env)(reward_scale=SCALE, box=box)
    return PettingZooWrapper(env=pz, use_mask=True, **kwargs), pz.unwrapped


def per_seat(td, key) -> torch.Tensor:
    """``key`` of the four seats side by side, [T, 4, ...], for either grouping (one group per seat,
    TorchRL's default for AEC envs, or one group ``agents``)."""
    if "agents" in td:
        return td["agents", key]
    return torch.cat([td[f"player_{i}", key] for i in range(SEATS)], dim=1)


def highest_but_pass(pass_id: int):
    """A deterministic masked policy: the legal action with the highest id other than PASS (wins,
    kongs and claims first); about half its hands end in a payment, on both rulesets."""

    def policy(td):
        for group in [g for g in GROUPS if g in td]:
            mask = td[group, "action_mask"].clone()
            mask[..., pass_id] &= mask.sum(-1) == 1  # PASS only where it is the one legal action
            ids = torch.arange(mask.shape[-1]).expand_as(mask)
            td[group, "action"] = torch.where(mask, ids, -1).amax(-1)
        return td

    return policy


def check_hand(td, game_env, rules: str) -> tuple[bool, int]:
    """One finished hand's rollout: legal, one acting seat per step, and every seat's rewards sum to
    its settlement / reward_scale. Returns (the hand had payments, seats paid on another's move)."""
    planes, n_actions = RULESETS[rules][2:4]
    acting = per_seat(td, "mask")
    assert acting.shape == (td.shape[0], SEATS) and (acting.sum(1) == 1).all()  # one seat acts per step
    action_mask = per_seat(td, "action_mask")
    action = per_seat(td, "action")
    assert action_mask.shape[-1] == n_actions
    assert per_seat(td, "observation")["observation"].shape[-2:] == planes
    chosen = action[acting]  # the acting seat's action at every step
    assert action_mask[acting].gather(-1, chosen.unsqueeze(-1)).all()  # ... is in its mask
    done = td["next", "done"].squeeze(-1)
    assert done[-1] and not done[:-1].any()  # exactly one finished hand
    reward = per_seat(td["next"], "reward").squeeze(-1).double()  # [T, 4]: every seat, every step
    settlement = torch.tensor(game_env.game.result.payments, dtype=torch.float64) / SCALE
    assert torch.equal(reward.sum(0), settlement), (reward.sum(0), settlement)
    assert reward.sum() == 0  # a hand's rewards sum to zero
    off_turn = int(((reward != 0) & ~acting).any(0).sum())
    return bool(settlement.any()), off_turn


# ------------------------------------------------------------------ (a) TorchRL's own env checker
@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("return_state", [False, True])
def test_check_env_specs(rules, return_state):
    env, game_env = wrapped(rules, return_state=return_state, seed=0)
    check_env_specs(env, seed=0)
    spec = env.observation_spec
    planes, n_actions, state = RULESETS[rules][2:5]
    assert env.group_map == {f"player_{i}": [f"player_{i}"] for i in range(SEATS)}  # default for AEC
    assert spec["player_0", "observation", "observation"].shape == (1, *planes)
    assert spec["player_0", "action_mask"].shape == (1, n_actions)
    assert spec["player_0", "info", "phase"].shape == (1,)  # numeric infos stack (no string)
    if return_state:
        assert spec["state"].shape == state
        td = env.reset()
        assert torch.equal(td["state"], torch.as_tensor(game_env.state()))  # the env's global state
    else:
        assert "state" not in spec


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("options", [
    {"raw": True},  # raw_env() works as well as env() (PettingZoo's wrappers)
    {"categorical_actions": False},  # one-hot actions
    {"group_map": MarlGroupMapType.ALL_IN_ONE_GROUP, "return_state": True},  # one group "agents"
    {"box": True},  # the planes alone, the mask in infos: TorchRL moves it to "action_mask" as well
], ids=["raw_env", "one_hot", "one_group", "box"])
def test_check_env_specs_other_options(rules, options):
    env, _ = wrapped(rules, **options, seed=1)
    check_env_specs(env, seed=1)
    group = next(iter(env.group_map))
    assert env.observation_spec[group, "action_mask"].shape[-1] == RULESETS[rules][3]
    if options.get("box"):
        assert env.observation_spec[group, "observation"].shape[-2:] == RULESETS[rules][2]
        td = env.rollout(5)  # TorchRL's masked random actions: legal with the mask from infos
        assert (per_seat(td, "mask").sum(1) == 1).all()


# ----------------------------------------------- (b) masked random rollouts, every seat's settlement
@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_torchrl_masked_random_rollout_is_legal_and_pays_every_seat(rules):
    """No policy: TorchRL's own ``rand_action``, which samples from the action spec's mask (the
    wrapper updates it from the observation's ``action_mask`` at every step)."""
    env, game_env = wrapped(rules, seed=2)
    for _ in range(3):
        td = env.rollout(10_000, break_when_any_done=True)  # one hand (rollout resets first)
        check_hand(td, game_env, rules)
        assert (per_seat(td, "info")["phase"] >= 0).all()


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("group_map", [None, MarlGroupMapType.ALL_IN_ONE_GROUP], ids=["per_seat", "one_group"])
def test_every_seat_gets_its_settlement(rules, group_map):
    """Hands that end in payments (a win-first masked policy): every seat's rewards, summed over the
    hand, equal its settlement / reward_scale, including the seats paid on another seat's move."""
    env, game_env = wrapped(rules, seed=3, group_map=group_map)
    policy = highest_but_pass(RULESETS[rules][5])
    paid = off_turn = 0
    for _ in range(20):
        td = env.rollout(10_000, policy, break_when_any_done=True)
        p, o = check_hand(td, game_env, rules)
        paid, off_turn = paid + p, off_turn + o
        if paid >= 2 and off_turn:
            break
    assert paid >= 2 and off_turn >= 1, (paid, off_turn)


def test_rewards_of_the_wrapper_are_the_env_rewards_of_every_seat():
    """The wrapper reads ``env.rewards`` (every agent's reward of the step, not only the actor's),
    and seats deciding nothing still get their payments: compare with the raw AEC loop."""
    env, game_env = wrapped("changsha", group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    td = env.rollout(10_000, highest_but_pass(cs_actions.PASS), break_when_any_done=True,
                     auto_reset=False, tensordict=env.reset(seed=5))  # reset(seed=...) reaches the env
    acting = td["agents", "mask"]
    seats = acting.float().argmax(-1).tolist()
    actions = td["agents", "action"][acting].tolist()
    raw = cs_raw_env(reward_scale=SCALE)
    raw.reset(seed=5)
    rewards = []
    for seat, a in zip(seats, actions, strict=True):
        assert raw.agent_selection == f"player_{seat}"  # the wrapper's acting seat is the env's
        raw.step(a)
        rewards.append([raw.rewards[f"player_{i}"] for i in range(SEATS)])
    assert not raw.agents or all(raw.terminations.values())
    assert np.array_equal(np.array(rewards, dtype=np.float32), td["next", "agents", "reward"][..., 0].numpy())
    assert game_env.game.result.payments == raw.game.result.payments


# ------------------------------------------------------------------------------------ (c) recipe
def recipe():
    spec = importlib.util.spec_from_file_location("torchrl_ppo", RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("argv", [
    ["--steps", "150", "--batch-steps", "75"],
    ["--steps", "50", "--rules", "hangzhou", "--critic", "state", "--hidden", "64"],
], ids=["changsha", "hangzhou_state_critic"])
def test_recipe_in_process(argv, capsys):
    assert recipe().main(argv) == 0
    out = capsys.readouterr().out
    assert re.search(r"settlement check: [1-9]\d* finished hands .* = 0\n", out), out


def test_recipe_per_seat_transitions_credit_other_seats_moves():
    """Decision k of a seat earns its rewards up to its next decision, whoever acts in between."""
    from tensordict import TensorDict

    mask = torch.tensor([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]], dtype=torch.bool)
    reward = torch.zeros(4, SEATS, 1)
    reward[1, 0] = 2.0  # seat 0 paid on seat 1's move
    reward[3] = torch.tensor([[-3.0], [1.0], [1.0], [1.0]])  # the settlement, on seat 2's move
    agents = TensorDict({
        "mask": mask, "action_mask": torch.ones(4, SEATS, 5, dtype=torch.bool),
        "action": torch.zeros(4, SEATS, dtype=torch.long), "log_prob": torch.zeros(4, SEATS),
        "value": torch.zeros(4, SEATS), "observation": {"observation": torch.zeros(4, SEATS, 2, 3)},
    }, [4, SEATS])
    hand = TensorDict({"agents": agents, "next": {"agents": {"reward": reward}}}, [4])
    seqs, returns, off_turn = recipe().per_seat_transitions(hand)
    by_seat = {int(s["seat"][0]): s["reward"].tolist() for s in seqs}
    assert by_seat == {0: [2.0, -3.0], 1: [1.0], 2: [1.0]}  # seat 3 never decided: no transition
    assert returns == [-1.0, 1.0, 1.0, 1.0] and off_turn == 3


def run_recipe(*args: str) -> str:
    """``python examples/torchrl_ppo.py ARGS`` from the repository root, as the README prints it."""
    env = dict(os.environ)  # CNMAHJONG_PURE travels with it when set
    proc = subprocess.run([sys.executable, "examples/torchrl_ppo.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    line = re.search(r"settlement check: (\d+) finished hands .*= (\S+)$", proc.stdout, re.M)
    assert line, proc.stdout
    assert int(line.group(1)) >= 1 and float(line.group(2)) == 0, line.group(0)
    return proc.stdout


@pytest.mark.slow
def test_recipe_changsha_subprocess():
    out = run_recipe("--steps", "3000")
    assert "torch threads 1" in out


@pytest.mark.slow
def test_recipe_hangzhou_subprocess():
    run_recipe("--steps", "800", "--rules", "hangzhou")
