"""Distillation (expert iteration's first step): a network taught to play like a slow teacher,
the search player, in one readable file (CleanRL style).

    python -m cnmahjong.training.train --config configs/changsha_distill.yaml

1. **Record** (``positions`` decisions, in ``num_workers`` spawned processes, each playing
   ``hands_per_chunk`` hands at a time from its own seeds): every seat is played by
   ``teacher`` (``search:...`` by default; any policy name the arena takes). At each decision
   with more than one legal action the seat's observation (uint8 planes of the ruleset's first
   encoder), its action mask, the teacher's action and, once the hand is over, the seat's
   settlement are kept. The positions go to ``data_file`` (``.npz``, plain arrays: read back with
   ``allow_pickle=False`` and every field checked). A file that already holds at least
   ``positions`` positions of the same encoder and teacher is reused, so a long recording
   (search is slow: run it in the background) serves several trainings.
2. **Train**: behaviour cloning, starting from ``init_checkpoint`` (a shipped agent, so the
   network keeps what PPO taught it and learns where the search disagrees) or a fresh network:
   cross-entropy to the teacher's action on masked logits, and the value head to the settlement
   / ``reward_scale``. ``holdout`` of the hands (whole hands, not positions) is kept out and
   its accuracy reported, before and after.
3. The checkpoint (``run_dir/checkpoints/final.pt``) is a self-play checkpoint: ``ckpt:PATH``
   plays it, ``selfplay_ppo``'s ``init_checkpoint`` continues it with PPO (the next round).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from cnmahjong.envs.core.ruleset import ruleset_of_preset
from cnmahjong.envs.integrations.networks import ActorCritic, save_actor_critic
from cnmahjong.training.config import (
    AT_LEAST_1,
    NON_NEGATIVE,
    POSITIVE,
    ConfigError,
    Range,
    default_rules,
    hp,
    parse,
    rule_presets,
    run_folder,
)

FIELDS = ("obs", "mask", "act", "ret", "hand")
"""The arrays of a positions file (``hand``: the seed of the hand each position comes from)."""
NAMES = ("encoder", "teacher", "rules")
"""Its names: what the positions read, who chose, under which rules (a file is reused only for the same)."""


@dataclass
class Args:
    """The hyper-parameters (a config's keys), their defaults and what is allowed."""

    algo: str = hp("distill", choices=("distill",))
    run_dir: str = hp("runs/distill", check=run_folder)
    rules: str = hp(factory=default_rules, choices=rule_presets)
    seed: int = hp(0, within=NON_NEGATIVE)
    # -- recording
    teacher: str = hp("search")  # any policy name (search:rollouts=64,... for a stronger, slower teacher)
    positions: int = hp(20_000, within=AT_LEAST_1)  # decisions with a choice to record (at least)
    data_file: str | None = hp(None)  # the positions file (None: run_dir/positions.npz)
    num_workers: int = hp(2, within=AT_LEAST_1)  # recording processes, one per core
    hands_per_chunk: int = hp(8, within=AT_LEAST_1)  # hands a worker plays per task
    # -- the network
    init_checkpoint: str | None = hp(None)  # start from a self-play .pt (a path or pretrained-NAME)
    arch: str = hp("conv", choices=("mlp", "conv"))  # a fresh network's (init_checkpoint brings its own)
    net_arch: list[int] = hp(factory=lambda: [256])
    # -- training
    epochs: int = hp(4, within=AT_LEAST_1)
    learning_rate: float = hp(3e-4, within=POSITIVE)
    batch_size: int = hp(512, within=AT_LEAST_1)
    vf_coef: float = hp(0.5, within=NON_NEGATIVE)
    keep_coef: float = hp(0.0, within=NON_NEGATIVE)  # KL to init_checkpoint's policy: learn the differences only
    max_grad_norm: float = hp(0.5, within=POSITIVE)
    reward_scale: float = hp(10.0, within=POSITIVE)  # the value head learns settlement / reward_scale
    holdout: float = hp(0.1, within=Range(0, 0.5))  # share of the hands kept out to measure accuracy

    def check(self) -> None:
        """The teacher is a policy that plays these rules; a checkpoint loads and reads them."""
        from cnmahjong.agents import make_policy
        from cnmahjong.training.selfplay_ppo import load_checkpoint

        rs = ruleset_of_preset(self.rules)
        try:
            make_policy(self.teacher, ruleset=rs.name)
        except ValueError as e:
            raise ConfigError(f"bad value {self.teacher!r} for 'teacher': {e}") from None
        if self.init_checkpoint is not None:
            load_checkpoint(self.init_checkpoint, "init_checkpoint", rs.encoder_name)

    def data_path(self) -> Path:
        return Path(self.data_file) if self.data_file else Path(self.run_dir) / "positions.npz"


# ------------------------------------------------------------------ recording
_worker: dict[str, Any] = {}


def _init(rules: str, teacher: str) -> None:
    """A recording worker: one torch thread (workers share the cores), the rules and the teacher."""
    from cnmahjong.agents import make_policy

    torch.set_num_threads(1)
    rs = ruleset_of_preset(rules)
    _worker.update(rs=rs, config=rs.as_config(rules), teacher=make_policy(teacher, ruleset=rs.name))


def record_hands(first: int, hands: int) -> dict[str, np.ndarray]:
    """Play ``hands`` hands (seeds ``first`` ...), every seat by the worker's teacher; the positions
    with a choice, as ``FIELDS`` arrays (``hand``: the seed)."""
    from cnmahjong.agents import reset_policy
    from cnmahjong.envs.core.rollouts import play_to_end
    from cnmahjong.envs.core.worlds import SeatView

    rs, config, teacher = _worker["rs"], _worker["config"], _worker["teacher"]
    act_view = getattr(teacher, "act_view", None)
    n_act = rs.num_actions
    obs, mask, act, seat_of, hand = [], [], [], [], []
    returns: list[float] = []
    for seed in range(first, first + hands):
        reset_policy(teacher, seed)
        game = rs.game(config, seed=seed)
        encoder = rs.encoder()
        start = len(act)

        def choose(game: Any, seat: int, legal: list[int], seed: int = seed, encoder: Any = encoder) -> int:
            """The teacher's choice at a decision with a choice (``play_to_end`` plays the single
            ones), recorded with the seat's planes and mask."""
            if act_view is not None:
                a = int(act_view(SeatView(game, seat)))
            else:
                a = int(teacher(encoder(game, seat), _mask(legal, n_act)))
            obs.append(np.frombuffer(encoder.planes(game, seat), dtype=np.uint8))
            mask.append(_mask(legal, n_act))
            act.append(a)
            seat_of.append(seat)
            hand.append(seed)
            return a

        play_to_end(game, choose)
        pay = game.result.payments
        returns += [pay[s] for s in seat_of[start:]]
    shape = (len(act), *rs.shape)
    return {"obs": np.array(obs, dtype=np.uint8).reshape(shape),
            "mask": np.array(mask, dtype=bool).reshape(len(act), n_act),
            "act": np.array(act, dtype=np.int64), "ret": np.array(returns, dtype=np.float32),
            "hand": np.array(hand, dtype=np.int64)}


def _mask(legal: list[int], n: int) -> np.ndarray:
    m = np.zeros(n, dtype=bool)
    m[legal] = True
    return m


def _chunk(item: tuple[int, int]) -> dict[str, np.ndarray]:
    return record_hands(*item)


def record(args: Args, log: Any) -> dict[str, np.ndarray]:
    """Record at least ``args.positions`` positions in parallel workers and save them; or reuse the
    data file when it already holds enough of the same encoder and teacher."""
    from cnmahjong.training.workers import ordered_map

    rs = ruleset_of_preset(args.rules)
    path = args.data_path()
    if path.exists():
        data = load_positions(path, rs.encoder_name)
        if data["teacher"] == args.teacher and data["rules"] == args.rules and len(data["act"]) >= args.positions:
            log.write(json.dumps({"phase": "record", "reused": str(path), "positions": len(data["act"])}) + "\n")
            print(f"reusing {len(data['act']):,} positions of {args.teacher} from {path}")
            return data
    start = time.time()
    parts: list[dict[str, np.ndarray]] = []
    have = 0
    seed = args.seed * 1_000_000
    per_chunk = args.hands_per_chunk
    while have < args.positions:
        # chunks enough for one position a hand; the workers stop (ended by ``ordered_map``) as soon
        # as the positions are in, so the run overshoots by the chunks in flight at most
        chunks = [(seed + i * per_chunk, per_chunk) for i in range(math.ceil((args.positions - have) / per_chunk))]
        seed += len(chunks) * per_chunk
        results = ordered_map(_chunk, chunks, args.num_workers, _init, (args.rules, args.teacher))
        try:
            for part in results:
                parts.append(part)
                have += len(part["act"])
                print(f"\rrecorded {have:,}/{args.positions:,} positions of {args.teacher} "
                      f"({(time.time() - start) / 60:.1f} min)", end="", flush=True)
                if have >= args.positions:
                    break
        finally:
            results.close()
    print()
    data: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part.npz")
    np.savez_compressed(tmp, encoder=np.array(rs.encoder_name), teacher=np.array(args.teacher),
                        rules=np.array(args.rules), **data)
    tmp.replace(path)  # whole or not at all
    log.write(json.dumps({"phase": "record", "positions": have, "hands": len(set(data["hand"].tolist())),
                          "minutes": (time.time() - start) / 60, "file": str(path)}) + "\n")
    data.update(encoder=rs.encoder_name, teacher=args.teacher, rules=args.rules)
    return data


def load_positions(path: str | Path, encoder: str) -> dict[str, Any]:
    """A positions file, read as plain arrays (no pickles) and checked field by field before use:
    a bad one is a ``ValueError`` naming the file, the field and what is allowed."""
    from cnmahjong.envs.core.ruleset import encoding_of, ruleset_of_encoder

    spec = encoding_of(encoder)
    n_act = ruleset_of_encoder(encoder).num_actions
    try:
        with np.load(path, allow_pickle=False) as f:
            raw = {k: f[k] for k in f.files}
    except Exception as e:  # noqa: BLE001 - any unreadable file is refused the same way
        raise ValueError(f"positions file {str(path)!r} cannot be read as plain arrays "
                         f"({type(e).__name__}: {e})") from None
    missing = sorted({*FIELDS, *NAMES} - set(raw))
    if missing:
        raise ValueError(f"positions file {str(path)!r} lacks {missing}: expected {[*FIELDS, *NAMES]}")
    for key in NAMES:
        if raw[key].dtype.kind != "U" or raw[key].shape != ():
            raise ValueError(f"positions file {str(path)!r}: field {key!r} is {raw[key].dtype} {raw[key].shape}, "
                             f"expected one string")
    found = str(raw["encoder"])
    if raw["encoder"].shape != () or found != encoder:
        raise ValueError(f"positions file {str(path)!r}: field 'encoder' is {found!r}, these rules read {encoder!r}")
    n = len(raw["act"])
    want = {"obs": (np.uint8, (n, *spec.shape)), "mask": (np.bool_, (n, n_act)), "act": (np.int64, (n,)),
            "ret": (np.float32, (n,)), "hand": (np.int64, (n,))}
    for key, (dtype, shape) in want.items():
        if raw[key].dtype != dtype or raw[key].shape != shape:
            raise ValueError(f"positions file {str(path)!r}: field {key!r} is {raw[key].dtype} {raw[key].shape}, "
                             f"expected {np.dtype(dtype)} {shape}")
    if n and (raw["act"].min() < 0 or raw["act"].max() >= n_act
              or not raw["mask"][np.arange(n), raw["act"]].all()):
        raise ValueError(f"positions file {str(path)!r}: field 'act' holds an action outside its row's mask")
    if not np.isfinite(raw["ret"]).all():
        raise ValueError(f"positions file {str(path)!r}: field 'ret' holds a non-finite settlement")
    return {**{k: raw[k] for k in FIELDS}, **{k: str(raw[k]) for k in NAMES}}


# ------------------------------------------------------------------ training
def accuracy(net: ActorCritic, data: dict[str, Any], rows: np.ndarray, to_float: Any) -> float | None:
    """Share of ``rows`` where the network's most likely legal action is the teacher's (None: no rows)."""
    if not len(rows):
        return None
    right = 0
    with torch.no_grad():
        for at in range(0, len(rows), 4096):
            r = rows[at:at + 4096]
            logits, _ = net(torch.from_numpy(to_float(data["obs"][r])), torch.from_numpy(data["mask"][r]))
            right += int((logits.argmax(-1).numpy() == data["act"][r]).sum())
    return right / len(rows)


def train(cfg: Any) -> Path:
    """Record (or reuse) the teacher's positions, then imitate them; returns the final checkpoint."""
    from cnmahjong.envs.core.ruleset import encoding_of
    from cnmahjong.training.selfplay_ppo import imitation, load_checkpoint

    args = parse(cfg, Args)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    rs = ruleset_of_preset(args.rules)
    if args.init_checkpoint:
        net = load_checkpoint(args.init_checkpoint, "init_checkpoint", rs.encoder_name)
    else:
        net = ActorCritic(args.net_arch, args.arch, encoder=rs.encoder_name)
    run_dir = Path(args.run_dir)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    with (run_dir / "log.jsonl").open("w", encoding="utf-8") as log:
        data = record(args, log)
        data = {**data, "ret": (data["ret"] / args.reward_scale).astype(np.float32)}
        hands = np.unique(data["hand"])
        n_held = max(1, round(args.holdout * len(hands))) if args.holdout and len(hands) > 1 else 0
        held = set(rng.choice(hands, size=n_held, replace=False).tolist())
        out = np.isin(data["hand"], list(held))
        train_rows, test_rows = np.flatnonzero(~out), np.flatnonzero(out)
        to_float = encoding_of(net.encoder).to_float
        net.eval()
        before = accuracy(net, data, test_rows, to_float)
        net.train()
        start = time.time()
        opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
        part = {k: data[k][train_rows] for k in ("obs", "mask", "act", "ret")}
        keep = None
        if args.keep_coef and args.init_checkpoint:
            keep = load_checkpoint(args.init_checkpoint, "init_checkpoint", rs.encoder_name)
            keep.eval()
        stats = imitation(net, opt, part, args.epochs, args.batch_size, args.vf_coef, args.max_grad_norm, rng, "cpu",
                          keep, args.keep_coef)
        net.eval()
        after = accuracy(net, data, test_rows, to_float)
        record_line = {"phase": "imitation", "positions": len(train_rows), "held_out": len(test_rows),
                       "held_out_accuracy_before": before, "held_out_accuracy": after,
                       "minutes": (time.time() - start) / 60, **stats}
        log.write(json.dumps(record_line) + "\n")
        print(f"imitation: {record_line}")
    return save_actor_critic(net, run_dir / "checkpoints" / "final.pt")
