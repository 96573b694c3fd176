"""``cnmahjong.envs``: the engines of each ruleset, the environments built on them, ``VectorEnv``
and the library integrations (the package root, ``cnmahjong``, says what is where)."""
