"""YAML run configs, validated: a bad key or value stops with a message naming it and what is allowed."""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A run config with an unknown key, a missing key or a bad value."""


# key -> (type or tuple of allowed values, default (REQUIRED for none), range check or None)
REQUIRED = object()


class Range:
    """A numeric range with its description: ``Range(0, 1, low_open=True)`` is ``0 < x ≤ 1``."""

    def __init__(self, low: float | None = None, high: float | None = None, *, low_open: bool = False) -> None:
        self.low, self.high, self.low_open = low, high, low_open

    def ok(self, x: float) -> bool:
        if not math.isfinite(x):
            return False
        if self.low is not None and (x <= self.low if self.low_open else x < self.low):
            return False
        return self.high is None or x <= self.high

    def __str__(self) -> str:
        lo = "" if self.low is None else f"{self.low:g} {'<' if self.low_open else '≤'} "
        hi = "" if self.high is None else f" ≤ {self.high:g}"
        return f"{lo}x{hi}" + (" (finite)" if self.high is None else "")


POSITIVE = Range(0, low_open=True)
AT_LEAST_1 = Range(1)
NON_NEGATIVE = Range(0)
UNIT = Range(0, 1)

COMMON: dict[str, tuple[Any, Any, Range | None]] = {
    "algo": (("maskable_ppo", "selfplay_ppo", "rllib_ppo", "tianshou_dqn"), REQUIRED, None),
    "run_dir": (str, "runs/train", None),
    "rules": (("mainstream", "classic", "hangzhou"), "mainstream", None),
    "seed": (int, 0, NON_NEGATIVE),
    "total_timesteps": (int, 200_000, AT_LEAST_1),
    "max_minutes": ((int, float), None, POSITIVE),
    "reward_scale": ((int, float), 10.0, POSITIVE),
    "net_arch": (list, [256, 256], None),
    "learning_rate": (float, 3e-4, POSITIVE),
    "gamma": (float, 0.99, Range(0, 1, low_open=True)),
    "gae_lambda": (float, 0.95, UNIT),
    "clip_range": (float, 0.2, POSITIVE),
    "ent_coef": (float, 0.01, NON_NEGATIVE),
    "vf_coef": (float, 0.5, NON_NEGATIVE),
    "max_grad_norm": (float, 0.5, POSITIVE),
    "n_epochs": (int, 4, AT_LEAST_1),
    "batch_size": (int, 256, AT_LEAST_1),
}

SCHEMAS: dict[str, dict[str, tuple[Any, Any, Range | None]]] = {
    "maskable_ppo": {
        **COMMON,
        "n_envs": (int, 2, AT_LEAST_1),
        "n_steps": (int, 1024, AT_LEAST_1),
        "opponents": (list, ["random", "greedy"], None),
        "trust_zip": (bool, False, None),
        "snapshot_every": (int, 0, NON_NEGATIVE),
        "checkpoint_every": (int, 50_000, NON_NEGATIVE),
        "progress_bar": (bool, True, None),
        "tensorboard": (bool, True, None),
    },
    "selfplay_ppo": {
        **COMMON,
        "arch": (("mlp", "conv"), "mlp", None),
        "num_workers": (int, 2, AT_LEAST_1),
        "tables_per_worker": (int, 64, AT_LEAST_1),
        "steps_per_rollout": (int, 32, AT_LEAST_1),
        "selfplay_weight": ((int, float), 1.0, NON_NEGATIVE),
        "greedy_weight": ((int, float), 0.0, NON_NEGATIVE),
        "random_weight": ((int, float), 0.0, NON_NEGATIVE),
        "snapshot_weight": ((int, float), 0.0, NON_NEGATIVE),
        "learner_seats": (int, 1, Range(1, 3)),
        "snapshot_every_updates": (int, 10, AT_LEAST_1),
        "max_snapshots": (int, 5, AT_LEAST_1),
        "bc_decisions": (int, 0, NON_NEGATIVE),
        "bc_epochs": (int, 2, AT_LEAST_1),
        "bc_learning_rate": (float, 1e-3, POSITIVE),
        "init_checkpoint": (str, None, None),
        "checkpoint_every_updates": (int, 20, AT_LEAST_1),
        "device": (("cpu", "cuda", "auto"), "cpu", None),
    },
    "rllib_ppo": {
        **COMMON,
        "arch": (("mlp", "conv"), "mlp", None),
        "address": (str, None, None),
        "node_ip_address": (str, "127.0.0.1", None),
        "num_cpus": (int, 2, AT_LEAST_1),
        "num_env_runners": (int, 2, NON_NEGATIVE),
        "train_batch_size": (int, 4000, AT_LEAST_1),
        "sample_timeout_s": ((int, float), 600, POSITIVE),
        "checkpoint_every_iterations": (int, 10, AT_LEAST_1),
    },
    "tianshou_dqn": {
        **COMMON,
        "arch": (("mlp", "conv"), "mlp", None),
        "n_envs": (int, 4, AT_LEAST_1),
        "buffer_size": (int, 100_000, AT_LEAST_1),
        "epoch_steps": (int, 10_000, AT_LEAST_1),
        "collect_steps": (int, 256, AT_LEAST_1),
        "updates_per_step": ((int, float), 0.1, POSITIVE),
        "eps_training": (float, 0.1, UNIT),
        "n_step": (int, 3, AT_LEAST_1),
        "target_update_freq": (int, 500, NON_NEGATIVE),
    },
}


def _type_name(types: tuple[type, ...]) -> str:
    return " or ".join("number" if t is float else t.__name__ for t in types)


def _check(key: str, value: Any, spec: tuple[Any, Any, Range | None]) -> Any:
    """Check one value; return it (ints given for a float key become floats)."""
    allowed, default, rng = spec
    if isinstance(allowed, tuple) and all(isinstance(a, str) for a in allowed):
        if not isinstance(value, str) or value not in allowed:
            raise ConfigError(f"bad value {value!r} for {key!r}: allowed {list(allowed)}")
        return value
    types = allowed if isinstance(allowed, tuple) else (allowed,)
    if value is None and default is None:
        return value
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise ConfigError(f"bad value {value!r} for {key!r}: expected {_type_name(types)}"
                          + (f" with {rng}" if rng else ""))
    if rng is not None and not rng.ok(value):
        raise ConfigError(f"bad value {value!r} for {key!r}: allowed {rng}")
    return value


def _check_list(key: str, value: list[Any]) -> None:
    if key == "net_arch":
        if not value or not all(isinstance(w, int) and not isinstance(w, bool) and w >= 1 for w in value):
            raise ConfigError(f"bad value {value!r} for 'net_arch': a non-empty list of layer widths, "
                              f"each an integer ≥ 1")
    elif key == "opponents" and (not value or not all(isinstance(n, str) for n in value)):
        raise ConfigError(f"bad value {value!r} for 'opponents': a non-empty list of policy names")


def validate(raw: dict[str, Any]) -> dict[str, Any]:
    """Check a config mapping and fill in defaults."""
    if not isinstance(raw, dict):
        raise ConfigError(f"a config is a mapping of keys to values, got {type(raw).__name__}")
    algo = raw.get("algo")
    if algo not in SCHEMAS:
        raise ConfigError(f"'algo' must be one of {list(SCHEMAS)}, got {algo!r}")
    schema = SCHEMAS[algo]
    unknown = sorted(set(raw) - set(schema))
    if unknown:
        raise ConfigError(f"unknown config keys {unknown} for algo {algo!r}: allowed {sorted(schema)}")
    out: dict[str, Any] = {}
    for key, spec in schema.items():
        if key in raw:
            out[key] = _check(key, raw[key], spec)
            if isinstance(out[key], list):
                _check_list(key, out[key])
        elif spec[1] is REQUIRED:
            raise ConfigError(f"missing config key {key!r}")
        else:
            out[key] = spec[1]
    if algo == "maskable_ppo":
        from cnmahjong.agents import make_policy
        from cnmahjong.envs.core.ruleset import ruleset_of_preset

        for name in out["opponents"]:
            try:
                make_policy(name, ruleset=ruleset_of_preset(out["rules"]), trust_pickles=out["trust_zip"])
            except (ValueError, OSError) as e:
                raise ConfigError(f"bad opponent {name!r} for 'opponents': {e}") from None
    if algo == "selfplay_ppo":
        if out["selfplay_weight"] + out["greedy_weight"] + out["random_weight"] + out["snapshot_weight"] <= 0:
            raise ConfigError("'selfplay_weight', 'greedy_weight', 'random_weight' and 'snapshot_weight' are "
                              "all 0: at least one kind of hand must be played")
        if out["init_checkpoint"] is not None and not Path(out["init_checkpoint"]).is_file():
            raise ConfigError(f"bad value {out['init_checkpoint']!r} for 'init_checkpoint': no such file")
    if out.get("device") == "cuda":
        import torch

        if not torch.cuda.is_available():
            raise ConfigError("'device' is 'cuda' but torch sees no CUDA device: use 'cpu' or 'auto'")
    return out


def parse_override(item: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from ``--set``; the value is read as YAML, and a number YAML leaves as text
    (``3e-4``: YAML 1.1 wants ``3.0e-4``) is read as a float."""
    import yaml

    if "=" not in item:
        raise ConfigError(f"--set takes KEY=VALUE, got {item!r}")
    key, text = item.split("=", 1)
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"--set {key}: cannot read {text!r} as a value ({e})") from None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    return key.strip(), value


def shipped_configs() -> dict[str, Path]:
    """The run configs shipped with the package (``cnmahjong.configs``), by name."""
    from importlib.resources import files

    folder = Path(str(files("cnmahjong.configs")))
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve(name_or_path: str | Path) -> Path:
    """A config file: a path that exists, or the name of a shipped config (``selfplay_ppo`` or
    ``selfplay_ppo.yaml``, also ``configs/selfplay_ppo.yaml`` from any directory)."""
    path = Path(name_or_path)
    if path.exists():
        return path
    shipped = shipped_configs()
    key = path.name[:-5] if path.name.endswith(".yaml") else path.name
    if (path.parent == Path(".") or path.parent == Path("configs")) and key in shipped:
        return shipped[key]
    raise ConfigError(f"config file {str(path)!r} does not exist; the shipped configs are "
                      f"{', '.join(shipped)} (give a name or a path)")


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML config file, given by path or by a shipped config's name."""
    import yaml

    path = resolve(path)
    if not path.is_file():
        raise ConfigError(f"config {str(path)!r} is not a file: give a YAML file such as configs/selfplay_ppo.yaml")
    try:
        with path.open(encoding="utf-8") as f:
            raw = yaml.safe_load(f)
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid YAML ({e})") from None
    if raw is None:
        raise ConfigError(f"{path}: the config is empty: it needs at least 'algo'")
    try:
        return validate(raw)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
