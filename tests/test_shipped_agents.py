"""The agents people benchmark against (issue "Agents worth benchmarking against"): the expert
players and the shipped learned agents of both rulesets play legal moves through the AEC env and
``VectorEnv``; ``make_policy`` loads each by name and refuses the other ruleset's planes; the
shipped files carry their config and evaluation; a tiny run of each recipe saves a loadable
checkpoint."""

import json
import re

import numpy as np
import pytest
import yaml

from cnmahjong.agents import SHIPPED, ExpertAgent, GreedyAgent, make_policy, shipped_names
from cnmahjong.agents.play import play_episode
from cnmahjong.envs.aec import aec_env
from cnmahjong.envs.core.ruleset import get_ruleset, rulesets
from cnmahjong.envs.vector import VectorEnv
from cnmahjong.training import config as C

SHIPPED_RULESETS = ("changsha", "hangzhou")
RECIPES = {"changsha": "changsha_v2", "hangzhou": "hangzhou_strong"}


def aec_legal(ruleset, policies, seeds):
    """Hands through the ruleset's AEC env; every action must be in its mask."""
    env = aec_env(ruleset)()
    moves = 0

    def check(seat, obs, action):
        nonlocal moves
        assert obs["action_mask"][action] == 1, (seat, action)
        moves += 1

    for seed in seeds:
        play_episode(env, policies, seed=seed, on_decision=check)
    return moves


def vector_legal(ruleset, policy, steps=150):
    """``VectorEnv`` steps with ``policy`` at every seat (its batched path where it has one)."""
    venv = VectorEnv(num_tables=6, seed=4, ruleset=ruleset)
    batch = venv.reset()
    for _ in range(steps):
        if hasattr(policy, "act_batch"):
            actions = policy.act_batch(batch.obs, batch.mask)
        else:
            actions = np.array([policy(o, m) for o, m in zip(batch.obs, batch.mask, strict=True)])
        assert all(batch.mask[i, a] == 1 for i, a in enumerate(actions))
        batch = venv.step(actions)
    return venv.hands_played


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_expert_plays_legal_moves_through_both_envs(ruleset):
    expert = make_policy("expert", ruleset=ruleset)
    assert isinstance(expert, ExpertAgent)
    assert aec_legal(ruleset, [expert, GreedyAgent(), expert, make_policy("random", seed=1)], range(6)) > 50
    assert vector_legal(ruleset, ExpertAgent()) > 0  # finds the ruleset from the planes' shape


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_the_shipped_agent_loads_by_name_and_plays_legal_moves(ruleset):
    path = SHIPPED / f"{ruleset}.pt"
    assert path.is_file() and path.stat().st_size <= 10 * 2**20
    by_ruleset = make_policy("pretrained", ruleset=ruleset)
    by_name = make_policy(f"pretrained-{ruleset}", ruleset=ruleset)
    assert by_ruleset.path == by_name.path == str(path)
    assert aec_legal(ruleset, [by_name, ExpertAgent(), GreedyAgent(), by_name], range(3)) > 30
    assert vector_legal(ruleset, by_name) > 0


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_a_shipped_agent_refuses_the_other_rulesets_planes(ruleset):
    other = next(r for r in SHIPPED_RULESETS if r != ruleset)
    own, theirs = get_ruleset(ruleset).encoder_name, get_ruleset(other).encoder_name
    with pytest.raises(ValueError) as err:
        make_policy(f"pretrained-{ruleset}", ruleset=other)
    assert f"{ruleset}.pt" in str(err.value) and repr(own) in str(err.value) and repr(theirs) in str(err.value)


def test_unknown_shipped_names_are_refused_listing_the_shipped_ones():
    with pytest.raises(ValueError, match="no shipped agent 'pretrained-sichuan': shipped are pretrained-changsha"):
        make_policy("pretrained-sichuan")
    assert {"changsha", "hangzhou"} <= set(shipped_names())


@pytest.mark.parametrize("name", ["changsha", "hangzhou"])
def test_each_shipped_agent_carries_its_evaluation(name):
    """Each eval JSON holds ≥ 2,000 duplicate deals per opponent, the candidate first, with CIs."""
    report = json.loads((SHIPPED / f"{name}.eval.json").read_text(encoding="utf-8"))
    assert report["command"].startswith("python -m cnmahjong.training.arena")
    assert {"random", "greedy"} <= set(report["matches"])
    for opp, match in report["matches"].items():
        assert match["deals"] >= 2000 and match["policies"][1:] == [opp] * 3
        low, high = match["reports"][0]["ci95"]
        assert low <= match["reports"][0]["mean_settlement"] <= high


@pytest.mark.parametrize("name", ["changsha", "hangzhou"])
def test_each_new_shipped_agent_carries_its_config(name):
    shipped = yaml.safe_load((SHIPPED / f"{name}.yaml").read_text(encoding="utf-8"))
    assert C.validate(shipped)["algo"] == "selfplay_ppo"
    report = json.loads((SHIPPED / f"{name}.eval.json").read_text(encoding="utf-8"))
    assert {"random", "greedy", "expert"} <= set(report["matches"])


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_a_tiny_run_of_each_recipe_saves_a_loadable_checkpoint(ruleset, tmp_path):
    """The shipped recipe as it is, shrunk to seconds (its pool, teacher and start kept)."""
    from cnmahjong.training.train import main

    cfg = C.load(RECIPES[ruleset])
    cfg.update(run_dir=str(tmp_path / "run"), total_timesteps=600, max_minutes=None, num_workers=1,
               tables_per_worker=6, steps_per_rollout=12, batch_size=128, n_epochs=1,
               bc_decisions=min(cfg.get("bc_decisions", 0), 200), snapshot_every_updates=1,
               checkpoint_every_updates=1000)
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    final = main(["--config", str(path)])
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert log[-1]["learner_decisions"] >= 600
    policy = make_policy(f"ckpt:{final}", ruleset=ruleset)
    assert aec_legal(ruleset, [policy] * 4, range(2)) > 0


@pytest.mark.parametrize("change, fragment", [
    ({"checkpoint_weight": 1.0}, "'opponent_checkpoints' is empty"),
    ({"opponent_checkpoints": ["pretrained-nope"]}, "no shipped agent 'pretrained-nope'"),
    ({"opponent_checkpoints": ["/no/such.pt"]}, "no such file"),
    ({"bc_teacher": "oracle"}, "bad value 'oracle' for 'bc_teacher': allowed \\['greedy', 'expert'\\]"),
])
def test_pool_config_errors_name_the_key(change, fragment):
    with pytest.raises(C.ConfigError, match=fragment):
        C.validate({"algo": "selfplay_ppo", **change})


def test_a_ruleset_without_an_expert_is_refused_naming_those_with_one():
    from dataclasses import replace

    changsha = get_ruleset("changsha")

    class BareGame(changsha.game):  # the name is the game class's fact
        RULESET = "bare"

    bare = replace(changsha, game=BareGame, players=replace(changsha.players, expert=None))
    with_one = sorted(rs.name for rs in rulesets() if rs.players.expert is not None)
    assert "changsha" in with_one and "bare" not in with_one
    with pytest.raises(ValueError, match=r"the bare ruleset has no expert player .*" + re.escape(str(with_one))):
        ExpertAgent(bare)
    assert GreedyAgent(bare).ruleset is bare
