"""``TorchPolicy``: a trained network as a policy ``policy(observation, action_mask) -> action``.

Loads a self-play checkpoint of ``ActorCritic`` (``.pt``) or, only when the caller says it
trusts the file, an sb3-contrib MaskablePPO checkpoint (``.zip``). A checkpoint is input from
outside: a ``.pt`` is read with ``torch.load(weights_only=True)`` (tensors and plain values
only; a pickle that would build any other object is refused before it runs), its description
is checked field by field and its weights must be finite. An SB3 ``.zip`` is unpickled by SB3
and can run code, so it needs ``trust_pickles=True`` (the CLIs' ``--trust-zip``). Illegal
actions get ``-inf`` logits, so the policy never picks one whatever its weights.
"""

from __future__ import annotations

import pickle
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from cnmahjong.envs.core.checks import bool_arg
from cnmahjong.envs.core.ruleset import ENCODERS, Ruleset, get_ruleset, ruleset_of_encoder

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
        rs = ruleset_of_encoder(encoder)
        SHAPE, NUM_ACTIONS = rs.shape, rs.num_actions  # noqa: N806 - the planes' constants
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
    if not isinstance(encoder, str) or encoder not in ENCODERS:
        raise ValueError(f"checkpoint {path!r}: field 'encoder' is {encoder!r}: known encoders are {sorted(ENCODERS)}")
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


class TorchPolicy:
    """Greedy (argmax) play from a checkpoint; ``deterministic=False`` samples instead.

    ``ruleset`` (a name or ``Ruleset``): the rules it will play; a checkpoint trained on another
    ruleset's encoder is refused here, before any deal. ``trust_pickles=True`` is needed for an
    SB3 ``.zip`` (unpickling it can run code: only for files you made yourself)."""

    def __init__(self, path: str | Path, deterministic: bool = True, device: str = "cpu",
                 ruleset: str | Ruleset | None = None, trust_pickles: bool = False) -> None:
        path = Path(path)
        if not path.exists():
            raise ValueError(f"checkpoint {str(path)!r} does not exist")
        trust_pickles = bool_arg(trust_pickles, "trust_pickles")
        self.path = str(path)
        self.deterministic = deterministic
        self.device = device
        self.trust_pickles = trust_pickles
        self._sb3: Any = None
        self._net: ActorCritic | None = None
        self._rng = np.random.default_rng()
        if path.suffix == ".zip":
            self.encoder = self._load_sb3()
        elif path.suffix == ".pt":
            self._net = load_actor_critic(self.path, device)
            self.encoder = self._net.encoder
        else:
            raise ValueError(f"unknown checkpoint type {path.suffix!r} of {self.path!r}: "
                             f"allowed .pt (self-play ActorCritic) or .zip (MaskablePPO, with trust_pickles)")
        if ruleset is not None:
            rs = get_ruleset(ruleset)
            if rs.encoder_name != self.encoder:
                raise ValueError(f"checkpoint {self.path!r} was trained on encoder {self.encoder!r} "
                                 f"({ENCODERS[self.encoder]}); the {rs.name} rules need encoder {rs.encoder_name!r}")

    def _load_sb3(self) -> str:
        """Load the trusted ``.zip``; the encoder whose planes it reads."""
        if not self.trust_pickles:
            raise ValueError(f"checkpoint {self.path!r} is an SB3 .zip: loading it unpickles Python objects, "
                             f"which can run any code. Pass trust_pickles=True (CLI --trust-zip) only for a "
                             f"file you made yourself, or play a weights-only .pt checkpoint")
        from sb3_contrib import MaskablePPO

        try:
            self._sb3 = MaskablePPO.load(self.path, device=self.device)
        except Exception as e:  # a corrupt or foreign zip: name the file and what was expected
            raise ValueError(f"checkpoint {self.path!r} cannot be read as an sb3-contrib MaskablePPO "
                             f"model ({type(e).__name__}: {e})") from None
        space = getattr(self._sb3, "observation_space", None)
        shapes = {ruleset_of_encoder(e).shape: e for e in ENCODERS}
        if getattr(space, "shape", None) not in shapes:
            raise ValueError(f"checkpoint {self.path!r} expects observations of shape "
                             f"{getattr(space, 'shape', None)}: the encoders' planes are "
                             + ", ".join(f"{e} {s}" for s, e in shapes.items()))
        return shapes[space.shape]

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        """A network meets only the planes of the encoder it was trained on."""
        want = self._net.shape if self._net is not None else None
        if want is not None and tuple(shape) != want:
            raise ValueError(f"checkpoint {self.path!r} was trained on {self._net.encoder!r} planes {want}, "
                             f"got observations of shape {tuple(shape)} (another ruleset?)")

    def _check_logits(self, logits: torch.Tensor) -> None:
        """Every row needs a legal action with a real logit (NaN from the inputs, or a row
        with no legal action, would otherwise pick an arbitrary index)."""
        if not bool((logits > float("-inf")).any(dim=-1).all()) or bool(torch.isnan(logits).any()):
            raise ValueError(f"checkpoint {self.path!r} gave no finite logit for a legal action "
                             f"(NaN observations, or an empty action mask)")

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions for many decisions in one forward pass (the arena's batched path)."""
        self._check_shape(observations.shape[1:])
        if self._net is None:
            return np.array([self(o, m) for o, m in zip(observations, masks, strict=True)], dtype=np.int64)
        with torch.no_grad():
            obs = torch.as_tensor(observations, dtype=torch.float32, device=self.device)
            logits, _ = self._net(obs, torch.as_tensor(masks, device=self.device))
            self._check_logits(logits)
            if self.deterministic:
                return logits.argmax(dim=-1).cpu().numpy()
            probs = torch.softmax(logits.double(), dim=-1).cpu().numpy()
        u = self._rng.random(len(probs))[:, None]
        return np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), probs.shape[1] - 1)

    def top_actions(self, observations: np.ndarray, masks: np.ndarray, k: int = 3) -> list[list[list[float]]]:
        """Per row, the ``k`` most probable legal actions with their probabilities (what the
        replay viewer shows beside a checkpoint player's decisions); empty for an sb3 model."""
        if self._net is None:
            return [[] for _ in observations]
        self._check_shape(observations.shape[1:])
        with torch.no_grad():
            logits, _ = self._net(torch.as_tensor(observations, dtype=torch.float32, device=self.device),
                                  torch.as_tensor(masks, device=self.device))
            probs = torch.softmax(logits.double(), dim=-1).cpu().numpy()
        out = []
        for row, mask in zip(probs, masks, strict=True):
            legal = np.flatnonzero(mask)
            best = legal[np.argsort(-row[legal], kind="stable")[:k]]
            out.append([[int(a), float(row[a])] for a in best])
        return out

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask.any():
            raise ValueError("TorchPolicy got an empty action mask: this seat is not to act")
        if self._sb3 is not None:
            action, _ = self._sb3.predict(observation, action_masks=action_mask.astype(bool),
                                          deterministic=self.deterministic)
            return int(action)
        assert self._net is not None
        self._check_shape(observation.shape)
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32, device=self.device).unsqueeze(0)
            mask = torch.as_tensor(action_mask, device=self.device).unsqueeze(0)
            logits, _ = self._net(obs, mask)
        self._check_logits(logits)
        if self.deterministic:
            return int(logits.argmax(dim=-1).item())
        probs = torch.softmax(logits, dim=-1).squeeze(0).cpu().numpy().astype(np.float64)
        return int(self._rng.choice(len(probs), p=probs / probs.sum()))

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "deterministic": self.deterministic, "device": self.device,
                "trust_pickles": self.trust_pickles}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], state["deterministic"], state["device"],
                      trust_pickles=state.get("trust_pickles", False))
