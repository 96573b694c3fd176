"""The networks the trainers, the integrations and ``TorchPolicy`` share, and their checkpoints.

``ActorCritic`` reads one named encoder's planes (any registered ruleset's); ``save_actor_critic``
writes a weights-only checkpoint that names its encoder, and ``load_actor_critic`` reads one back
with ``torch.load(weights_only=True)``, checking every field before a tensor is allocated. They
live in ``envs.integrations`` so that the RLlib and Tianshou glue and ``cnmahjong.agents`` both
import them without ``envs`` importing ``agents``.
"""

from __future__ import annotations

import pickle
import re
import warnings
from pathlib import Path
from typing import Any

import torch
from torch import nn

from cnmahjong.envs.core.ruleset import encoder_names, encoding_of, ruleset_of_encoder

ARCHS = ("mlp", "conv")
MAX_LAYERS = 8
MAX_WIDTH = 4096
"""The widest network a checkpoint may describe (a hostile ``net_arch`` must not allocate
gigabytes before its weights are even looked at)."""


class ActorCritic(nn.Module):
    """Actor-critic over one encoder's planes (``cs-v0`` Changsha, ``hz-v0`` Hangzhou) with
    masked policy logits.

    ``arch="mlp"``: the flattened planes through ``net_arch`` hidden layers.
    ``arch="conv"``: two 1-D convolutions over the kinds first (kernel 3 sees a
    tile and its neighbours of rank ±1, so runs and their gaps are local patterns;
    suit boundaries are kept by the zero padding of each suit's 9 positions, and
    each honour is seen alone), then the hidden layers."""

    def __init__(self, net_arch: list[int] | tuple[int, ...] = (256, 256), arch: str = "mlp",
                 channels: int = 64, encoder: str = "cs-v0") -> None:
        super().__init__()
        if arch not in ARCHS:
            raise ValueError(f"arch {arch!r}: allowed {ARCHS}")
        SHAPE, NUM_ACTIONS = encoding_of(encoder).shape, ruleset_of_encoder(encoder).num_actions  # noqa: N806 - the planes' constants
        self.encoder = encoder
        self.shape: tuple[int, int] = SHAPE
        """The planes this network reads (its encoder's)."""
        layers: list[nn.Module] = []
        if arch == "conv":
            layers += [SuitConv(SHAPE[0], channels), nn.ReLU(), SuitConv(channels, channels), nn.ReLU()]
            width = channels * SHAPE[1]
        else:
            width = SHAPE[0] * SHAPE[1]
        layers.append(nn.Flatten())
        for h in net_arch:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.body = nn.Sequential(*layers)
        self.policy = nn.Linear(width, NUM_ACTIONS)
        self.value = nn.Linear(width, 1)
        self.net_arch = list(net_arch)
        self.arch = arch

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal actions at ``-inf``: no weights can make one the argmax, and
        its probability is exactly 0) and state values."""
        h = self.body(obs)
        logits = self.policy(h).masked_fill(mask == 0, float("-inf"))
        return logits, self.value(h).squeeze(-1)


class SuitConv(nn.Module):
    """Conv1d with kernel 3 over each suit's 9 kinds separately (no run across suits); honours
    (kinds 27–33, when present) each on their own, through the same kernel's centre."""

    def __init__(self, c_in: int, c_out: int) -> None:
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size=3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c, k = x.shape
        suited = x[..., :27].reshape(n, c, 3, 9).permute(0, 2, 1, 3).reshape(n * 3, c, 9)
        y = self.conv(suited).reshape(n, 3, -1, 9).permute(0, 2, 1, 3).reshape(n, -1, 27)
        if k == 27:
            return y
        honours = x[..., 27:].permute(0, 2, 1).reshape(n * (k - 27), c, 1)
        h = self.conv(honours).reshape(n, k - 27, -1).permute(0, 2, 1)
        return torch.cat([y, h], dim=2)


def cpu_weights(net: nn.Module) -> dict[str, torch.Tensor]:
    """A copy of a network's weights on the CPU (to save, or to send to another process)."""
    return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}


def save_actor_critic(net: ActorCritic, path: str | Path) -> Path:
    """``net`` as a self-play checkpoint, the one format ``load_actor_critic`` and ``ckpt:PATH`` read
    (every trainer writes its networks through here)."""
    torch.save({"state_dict": cpu_weights(net), "net_arch": net.net_arch, "arch": net.arch,
                "encoder": net.encoder}, path)
    return Path(path)


CHECKPOINT_FORMAT = ("a dict with 'state_dict', 'net_arch', 'encoder' and 'arch', saved by "
                     "save_actor_critic (cnmahjong.training.selfplay_ppo and the integrations)")


def _checked_description(path: str, ckpt: Any) -> tuple[list[int], str, str]:
    """``(net_arch, arch, encoder)`` of a loaded checkpoint, each field checked: a bad one is a
    ``ValueError`` naming the file, the field and what is allowed."""
    if not isinstance(ckpt, dict) or not {"state_dict", "net_arch", "encoder"} <= set(ckpt):
        raise ValueError(f"checkpoint {path!r} is not a self-play checkpoint: expected {CHECKPOINT_FORMAT}")
    arch, encoder, net_arch = ckpt.get("arch", "mlp"), ckpt["encoder"], ckpt["net_arch"]
    known = encoder_names()
    if not isinstance(encoder, str) or encoder not in known:
        raise ValueError(f"checkpoint {path!r}: field 'encoder' is {encoder!r}: known encoders are {sorted(known)}")
    if not isinstance(arch, str) or arch not in ARCHS:
        raise ValueError(f"checkpoint {path!r}: field 'arch' is {arch!r}: allowed {ARCHS}")
    if not isinstance(net_arch, (list, tuple)) or not 1 <= len(net_arch) <= MAX_LAYERS \
            or not all(type(h) is int and 1 <= h <= MAX_WIDTH for h in net_arch):
        raise ValueError(f"checkpoint {path!r}: field 'net_arch' is {net_arch!r}: allowed a list of 1 to "
                         f"{MAX_LAYERS} layer widths, each an integer 1..{MAX_WIDTH}")
    if not isinstance(ckpt["state_dict"], dict):
        raise ValueError(f"checkpoint {path!r}: field 'state_dict' is {type(ckpt['state_dict']).__name__}, "
                         f"not a dict of tensors")
    return list(net_arch), arch, encoder


def _first_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _unpickler_detail(e: Exception) -> str:
    """What torch's weights-only unpickler objected to (its long message, cut to that)."""
    found = re.search(r"WeightsUnpickler error:\s*(.+?)(?:\. |\n|$)", str(e))
    return found.group(1).strip() if found else _first_line(e)


def load_actor_critic(path: str, device: str = "cpu") -> ActorCritic:
    """An ``ActorCritic`` from a self-play checkpoint. The file is read as weights only (no code
    runs, whatever it holds); a file that needs more, a corrupt or foreign one, a bad field or
    non-finite weights is a ``ValueError`` naming the file and what was wrong."""
    path = str(path)
    try:
        with warnings.catch_warnings():  # a bare pickle's protocol warning: the refusal below says it all
            warnings.filterwarnings("ignore", message="Detected pickle protocol")
            ckpt = torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError as e:
        raise ValueError(f"checkpoint {path!r} cannot be read as weights only, so it is refused "
                         f"({_unpickler_detail(e)}): a checkpoint holds tensors and plain values, never "
                         f"objects whose loading could run code; expected {CHECKPOINT_FORMAT}") from None
    except Exception as e:
        raise ValueError(f"checkpoint {path!r} cannot be read ({type(e).__name__}: {_first_line(e)}); "
                         f"expected {CHECKPOINT_FORMAT}") from None
    net_arch, arch, encoder = _checked_description(path, ckpt)
    weights = ckpt["state_dict"]
    for key, value in weights.items():
        if not isinstance(value, torch.Tensor):
            raise ValueError(f"checkpoint {path!r}: state_dict[{key!r}] is {type(value).__name__}, not a tensor")
        if value.is_floating_point() and not bool(torch.isfinite(value).all()):
            raise ValueError(f"checkpoint {path!r}: state_dict[{key!r}] holds NaN or infinite weights")
    net = ActorCritic(net_arch, arch, encoder=encoder).to(device)
    try:
        net.load_state_dict(weights)
    except Exception as e:
        raise ValueError(f"checkpoint {path!r}: its weights do not fit ActorCritic({net_arch}, {arch!r}, "
                         f"{encoder!r}) ({_first_line(e)})") from None
    net.eval()
    return net
