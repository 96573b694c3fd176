"""YAML run configs, validated: a bad key or value stops with a message naming it and what is allowed."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A run config with an unknown key, a missing key or a bad value."""


# key -> (type or tuple of allowed values, default; REQUIRED for none)
REQUIRED = object()

COMMON: dict[str, tuple[Any, Any]] = {
    "algo": (("maskable_ppo", "selfplay_ppo"), REQUIRED),
    "run_dir": (str, "runs/train"),
    "rules": (("mainstream", "classic"), "mainstream"),
    "seed": (int, 0),
    "total_timesteps": (int, 200_000),
    "max_minutes": ((int, float), None),
    "reward_scale": ((int, float), 10.0),
    "net_arch": (list, [256, 256]),
    "learning_rate": (float, 3e-4),
    "gamma": (float, 0.99),
    "gae_lambda": (float, 0.95),
    "clip_range": (float, 0.2),
    "ent_coef": (float, 0.01),
    "vf_coef": (float, 0.5),
    "max_grad_norm": (float, 0.5),
    "n_epochs": (int, 4),
    "batch_size": (int, 256),
}

SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "maskable_ppo": {
        **COMMON,
        "n_envs": (int, 2),
        "n_steps": (int, 1024),
        "opponents": (list, ["random", "greedy"]),
        "snapshot_every": (int, 0),
        "checkpoint_every": (int, 50_000),
        "progress_bar": (bool, True),
        "tensorboard": (bool, True),
    },
    "selfplay_ppo": {
        **COMMON,
        "episodes_per_update": (int, 16),
        "checkpoint_every_updates": (int, 20),
        "device": (("cpu", "cuda", "auto"), "cpu"),
    },
}


def _check(key: str, value: Any, spec: Any) -> None:
    allowed, _ = spec
    if isinstance(allowed, tuple) and all(isinstance(a, str) for a in allowed):
        if value not in allowed:
            raise ConfigError(f"bad value {value!r} for {key!r}: allowed {list(allowed)}")
        return
    types = allowed if isinstance(allowed, tuple) else (allowed,)
    if value is None and spec[1] is None:
        return
    if isinstance(value, bool) and bool not in types:
        raise ConfigError(f"bad value {value!r} for {key!r}: expected {' or '.join(t.__name__ for t in types)}")
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, types):
        raise ConfigError(f"bad value {value!r} for {key!r}: expected {' or '.join(t.__name__ for t in types)}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise ConfigError(f"bad value {value!r} for {key!r}: must not be negative")


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
            _check(key, raw[key], spec)
            value = raw[key]
            if isinstance(spec[0], type) and spec[0] is float and isinstance(value, int):
                value = float(value)
            out[key] = value
        elif spec[1] is REQUIRED:
            raise ConfigError(f"missing config key {key!r}")
        else:
            out[key] = spec[1]
    if out["batch_size"] < 1 or out["total_timesteps"] < 1:
        raise ConfigError("'batch_size' and 'total_timesteps' must be at least 1")
    if algo == "maskable_ppo":
        from agents import make_policy

        for name in out["opponents"]:
            try:
                make_policy(name)
            except (ValueError, OSError) as e:
                raise ConfigError(f"bad opponent {name!r} in 'opponents': {e}") from None
    return out


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML config file."""
    import yaml

    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file {str(path)!r} does not exist")
    with path.open(encoding="utf-8") as f:
        raw = yaml.safe_load(f) or {}
    try:
        return validate(raw)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
