"""The toy's actions: discard a kind (0..26), HU 27, PASS 28."""

from cnmahjong.envs.core.tiles import name

NUM_ACTIONS = 29
HU, PASS = 27, 28


def describe(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} outside 0..{NUM_ACTIONS - 1}")
    return "HU" if action == HU else "PASS" if action == PASS else f"discard {name(action)}"
