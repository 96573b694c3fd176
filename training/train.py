"""Train a policy from a YAML config.

    cnmahjong-train --config ppo_maskable                      # a shipped config, by name
    cnmahjong-train --config selfplay_ppo --set max_minutes=5
    python -m cnmahjong.training.train --config my_run.yaml    # or a file of your own

``--set key=value`` overrides config keys (values parsed as YAML). The keys are the chosen
trainer's hyper-parameters: the fields of ``Args`` in its file (``algo: selfplay_ppo``:
``cnmahjong.training.selfplay_ppo.Args``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cnmahjong.training.config import ConfigError, load, parse_override, trainer, validate
from cnmahjong.training.sigterm import sigterm_as_interrupt


def main(argv: list[str] | None = None) -> Path:
    sigterm_as_interrupt()  # SIGTERM stops a run as Ctrl-C does: its worker processes are ended, not orphaned
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", required=True,
                        help="a shipped config's name (selfplay_ppo, ppo_maskable, ...) or a YAML file")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a key")
    args = parser.parse_args(argv)
    try:
        cfg = load(args.config)
        for item in args.set:
            key, value = parse_override(item)
            cfg[key] = value
        cfg = validate(cfg)
    except ConfigError as e:
        print(f"config error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    run_dir = Path(cfg["run_dir"])
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))
    print(f"training {cfg['algo']} -> {run_dir}")
    try:
        final = trainer(cfg["algo"]).train(cfg)
    except KeyboardInterrupt:
        print("\nstopped: the run's workers are ended; checkpoints saved so far stay in the run folder",
              file=sys.stderr)
        raise SystemExit(130) from None
    print(f"saved {final}")
    return final


if __name__ == "__main__":
    main()
