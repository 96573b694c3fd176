"""``cnmahjong.configs``: the run configs (``*.yaml``, the CLIs' ``--config NAME``) and the rule
presets (``rules/*.yaml``), shipped as package data so that they work from any directory."""
