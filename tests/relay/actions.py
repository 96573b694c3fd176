"""The relay's actions: discard a kind (0..26), HU 27, PASS 28, pick a kind to pass on 29..55."""

from cnmahjong.envs.core.tiles import name

NUM_KINDS = 27
HU, PASS = 27, 28
PICK = 29
NUM_ACTIONS = PICK + NUM_KINDS


def describe(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} outside 0..{NUM_ACTIONS - 1}")
    if action == HU:
        return "HU"
    if action == PASS:
        return "PASS"
    if action >= PICK:
        return f"pick {name(action - PICK)}"
    return f"discard {name(action)}"
