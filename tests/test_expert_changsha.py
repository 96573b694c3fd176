"""Changsha's expert player (``envs/changsha/expert.py``): legal play, defence and value."""

from __future__ import annotations

import numpy as np

from cnmahjong.agents import ExpertAgent, GreedyAgent, RandomAgent
from cnmahjong.agents.play import play_episode
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.changsha.expert import expert
from cnmahjong.envs.changsha.heuristic import heuristic
from cnmahjong.envs.changsha.observation import CHANNELS, encode
from cnmahjong.envs.vector import VectorEnv
from tests.scenario import build, t


def test_expert_plays_only_legal_moves_through_the_aec_env():
    """Over many hands against greedy and random players every choice is in the action mask."""
    def check(seat, obs, action):
        assert obs["action_mask"][action] == 1, (seat, action)

    for seed in range(40):
        env = raw_env(rules="classic" if seed % 3 == 0 else "mainstream")
        play_episode(env, [ExpertAgent(), GreedyAgent(), ExpertAgent(), RandomAgent(seed)], seed=seed,
                     on_decision=check)
        assert env.game.result is not None


def test_expert_plays_only_legal_moves_through_the_vector_env():
    """``VectorEnv`` rows (float planes) with the expert at every seat: legal, and hands finish."""
    venv = VectorEnv(num_tables=8, seed=5)
    batch = venv.reset()
    while venv.hands_played < 120:
        actions = []
        for obs, mask in zip(batch.obs, batch.mask, strict=True):
            legal = [int(a) for a in np.flatnonzero(mask)]
            a = legal[0] if len(legal) == 1 else expert(obs, legal)
            assert mask[a] == 1
            actions.append(a)
        batch = venv.step(np.array(actions))


# A dealer hand with no pair and no run: hopeless (高向听), the fold case.
HOPELESS = "5m9m147s147p9s9p28s36p"


def _locked_opponent(obs: np.ndarray, rel: int, river: str) -> np.ndarray:
    """The observation with opponent ``rel`` locked after an unused 开杠 draw (§6.3, 报听: surely
    ready) and ``river`` lying in his 牌河 (the planes a real 开杠 leaves)."""
    out = obs.copy()
    out[CHANNELS.slice("LOCKED", rel), :] = 1.0
    out[CHANNELS.slice("RIVER", rel).start, t(river)] = 1.0
    unseen = CHANNELS.slice("UNSEEN")
    level = int(out[unseen, t(river)].sum())
    out[unseen.start + level - 1, t(river)] = 0.0  # one copy fewer unseen (thermometer)
    return out


def test_expert_folds_a_hopeless_hand_against_a_kaigang_opponent_section_6_3():
    """§6.3: an opponent locked after 开杠 is ready. With a hopeless hand late in the wall the
    expert throws the kind that opponent discarded (现物) where greedy throws another tile."""
    g = build({0: HOPELESS}, "", filler_wall=16)
    legal = g.legal_actions(0)
    plain = encode(g, 0)
    greedy_choice = heuristic(plain, legal)
    safe = next(k for k in ("2s", "8s", "3p", "6p", "5m") if t(k) != greedy_choice)
    obs = _locked_opponent(plain, 1, safe)
    assert heuristic(obs, legal) == greedy_choice  # greedy ignores the danger
    assert expert(obs, legal) == t(safe)


def test_expert_keeps_attacking_a_ready_hand_against_a_kaigang_opponent():
    """A ready hand (听牌) is worth more than the risk: the expert still discards for shape, as greedy."""
    g = build({0: "123m456m789s55p67p9s"}, "", filler_wall=30)
    legal = g.legal_actions(0)
    obs = _locked_opponent(encode(g, 0), 2, "5p")
    assert expert(obs, legal) == t("9s")


def test_expert_does_not_fold_early_against_quiet_opponents():
    """Early, nobody melded nor locked: the hopeless hand still discards as greedy does."""
    g = build({0: HOPELESS}, "", filler_wall=40)
    legal = g.legal_actions(0)
    obs = encode(g, 0)
    assert expert(obs, legal) == heuristic(obs, legal)


def test_expert_keeps_a_one_suit_shape_where_greedy_breaks_it_section_4():
    """§4 / §8.2: 清一色 pays about six times a 平胡. With eleven pin tiles the expert throws the
    off-suit 6m and keeps the suit; greedy throws 8p (the fewest-shanten standard choice)."""
    g = build({0: "6m13s11123357889p"}, "", filler_wall=40)
    legal = g.legal_actions(0)
    obs = encode(g, 0)
    assert heuristic(obs, legal) == t("8p")
    assert expert(obs, legal) == t("6m")


def test_expert_keeps_a_one_suit_shape_in_souzi_section_4():
    """The same 清一色 preference in another suit: the expert throws the stray 7m."""
    g = build({0: "7m11223566788s34p"}, "", filler_wall=40)
    legal = g.legal_actions(0)
    obs = encode(g, 0)
    assert heuristic(obs, legal) == t("6s")
    assert expert(obs, legal) == t("7m")
