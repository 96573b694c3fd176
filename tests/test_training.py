"""Training entry points end to end (seconds), config validation, and the arena's duplicate deals."""

import pytest

from cnmahjong.agents import make_policy
from cnmahjong.agents.play import play_episode
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.changsha.rules import RuleConfig
from cnmahjong.training import config as C
from cnmahjong.training.arena import run_deals, summarise


def legal_play(policy, seeds=3):
    """The policy plays every seat of a few hands; each action must be in the mask."""
    env = raw_env()

    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1

    for seed in range(seeds):
        play_episode(env, [policy] * 4, seed=seed, on_decision=check)


def test_maskable_ppo_short_run_saves_loadable_checkpoint(tmp_path):
    from cnmahjong.training.train import main

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(f"""
algo: maskable_ppo
run_dir: {tmp_path / 'run'}
total_timesteps: 256
n_envs: 1
n_steps: 128
batch_size: 64
n_epochs: 1
net_arch: [32]
opponents: [random, greedy]
snapshot_every: 128
checkpoint_every: 0
progress_bar: false
tensorboard: false
""")
    final = main(["--config", str(cfg)])
    assert final.exists() and (tmp_path / "run" / "config.json").exists()
    assert list((tmp_path / "run" / "snapshots").glob("*.zip"))  # the pool got a snapshot
    with pytest.raises(ValueError, match="trust_pickles=True"):  # an SB3 zip unpickles code
        make_policy(f"ckpt:{final}")
    legal_play(make_policy(f"ckpt:{final}", trust_pickles=True))


def test_imitation_then_ppo_short_run_saves_loadable_checkpoint(tmp_path):
    """A tiny run of the vector trainer: imitation of greedy, then PPO against the whole pool
    (self-play, greedy, snapshots) with two worker processes."""
    import json

    from cnmahjong.training.train import main

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(f"""
algo: selfplay_ppo
run_dir: {tmp_path / 'sp'}
total_timesteps: 1500
num_workers: 2
tables_per_worker: 8
steps_per_rollout: 16
selfplay_weight: 1
greedy_weight: 1
snapshot_weight: 1
snapshot_every_updates: 1
bc_decisions: 300
bc_epochs: 1
arch: conv
net_arch: [32]
batch_size: 128
n_epochs: 1
checkpoint_every_updates: 1
""")
    final = main(["--config", str(cfg)])
    assert final.suffix == ".pt" and final.exists()
    assert (tmp_path / "sp" / "checkpoints" / "imitation.pt").exists()
    assert list((tmp_path / "sp" / "checkpoints").glob("model_*.pt"))
    log = [json.loads(line) for line in (tmp_path / "sp" / "log.jsonl").read_text().splitlines()]
    assert log[0]["phase"] == "imitation" and log[0]["decisions"] >= 300
    ppo = [r for r in log if r["phase"] == "ppo"]
    assert ppo and ppo[-1]["learner_decisions"] >= 1500
    assert any("settlement_vs_greedy" in r for r in ppo) and any("settlement_vs_snapshot" in r for r in ppo)
    legal_play(make_policy(f"ckpt:{final}"))


@pytest.mark.parametrize(
    "raw, fragment",
    [({"algo": "dqn"}, "'algo' must be one of"),
     ({"algo": "maskable_ppo", "learning_rat": 0.1}, "unknown config keys \\['learning_rat'\\]"),
     ({"algo": "maskable_ppo", "n_envs": "two"}, "bad value 'two' for 'n_envs'"),
     ({"algo": "maskable_ppo", "rules": "guangdong"}, "allowed \\['mainstream', 'classic', 'hangzhou', 'sichuan'\\]"),
     ({"algo": "maskable_ppo", "opponents": ["smart"]}, "bad opponent 'smart'"),
     ({"algo": "selfplay_ppo", "gamma": -1.0}, "bad value -1.0 for 'gamma': allowed 0 < x ≤ 1"),
     ({"algo": "selfplay_ppo", "progress_bar": True}, "unknown config keys")],
)
def test_config_validation_errors(raw, fragment):
    with pytest.raises(C.ConfigError, match=fragment):
        C.validate(raw)


def test_config_files_in_repo_are_valid():
    for name in ("configs/ppo_maskable.yaml", "configs/selfplay_ppo.yaml", "configs/demo.yaml"):
        cfg = C.load(name)
        assert cfg["algo"] in C.SCHEMAS
    with pytest.raises(C.ConfigError, match="does not exist"):
        C.load("configs/missing.yaml")


def test_train_cli_reports_config_errors(tmp_path, capsys):
    from cnmahjong.training.train import main

    cfg = tmp_path / "bad.yaml"
    cfg.write_text("algo: maskable_ppo\nn_step: 5\n")
    with pytest.raises(SystemExit) as e:
        main(["--config", str(cfg)])
    assert e.value.code == 2 and "unknown config keys ['n_step']" in capsys.readouterr().err


def test_arena_rotations_replay_the_same_deal():
    names = ["greedy", "random", "random", "random"]
    results = run_deals(names, deals=3, rules=RuleConfig(), seed=5, workers=1, progress=False)
    for deal in results:
        assert [rot["rotation"] for rot in deal] == [0, 1, 2, 3]
        assert len({rot["deal"] for rot in deal}) == 1  # same walls and hands in every rotation
    assert len({deal[0]["deal"] for deal in results}) == 3  # different deals differ
    for deal in results:  # every rotation is a zero-sum hand
        for rot in deal:
            assert sum(p["settlement"] for p in rot["policies"]) == 0
    reports = summarise(names, results)
    assert reports[0].ci_low <= reports[0].mean <= reports[0].ci_high
    assert [r.name for r in reports] == ["greedy", "random#1", "random#2", "random#3"]


def test_rule_preset_files_load():
    import yaml

    for name in ("mainstream", "classic"):
        with open(f"configs/rules/{name}.yaml", encoding="utf-8") as f:
            assert RuleConfig.from_dict(yaml.safe_load(f)) == RuleConfig.preset(name)


def test_batched_arena_plays_the_aec_env_hands():
    """Deterministic policies: every (deal, rotation) of the batched arena ends as the same hand
    played through the AEC env with ``play_episode``."""
    import hashlib
    import json

    from cnmahjong.training.arena import play_deals

    names = ["greedy", "greedy", "greedy", "greedy"]
    results = play_deals(names, [11, 12, 13], RuleConfig().to_dict(), tables=5)
    env = raw_env()
    greedy = make_policy("greedy")
    for seed, deal in zip([11, 12, 13], results, strict=True):
        play_episode(env, [greedy] * 4, seed=seed)
        d = env.game.events[0]
        assert deal[0]["deal"] == hashlib.sha1(json.dumps([d["hands"], d["wall"], d["dealer"]]).encode()).hexdigest()
        for rot in deal:  # every seat is greedy, so every rotation is the AEC hand itself
            seat_of = [(p + rot["rotation"]) % 4 for p in range(4)]
            assert [rot["policies"][p]["settlement"] for p in range(4)] == \
                [env.game.result.payments[s] for s in seat_of]
