"""``TorchPolicy``: a trained network as a policy ``policy(observation, action_mask) -> action``.

Loads either an sb3-contrib MaskablePPO checkpoint (``.zip``) or a self-play
checkpoint of ``ActorCritic`` (``.pt``). Illegal actions are masked out of the
logits, so the policy only ever picks legal actions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from envs.core.ruleset import ENCODERS, ruleset_of_encoder

ARCHS = ("mlp", "conv")


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
        """Masked logits (illegal actions at -1e9) and state values."""
        h = self.body(obs)
        logits = self.policy(h).masked_fill(mask == 0, -1e9)
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


def load_actor_critic(path: str, device: str = "cpu") -> ActorCritic:
    """An ``ActorCritic`` from a self-play checkpoint; a corrupt or foreign file is a ``ValueError``
    naming the file and what a checkpoint holds."""
    expected = "a dict with 'state_dict', 'net_arch' and 'encoder' (and 'arch') saved by training.selfplay_ppo"
    try:
        ckpt = torch.load(path, map_location=device, weights_only=False)
    except Exception as e:
        raise ValueError(f"checkpoint {path!r} cannot be read ({type(e).__name__}: {e}); "
                         f"expected {expected}") from None
    if not isinstance(ckpt, dict) or not {"state_dict", "net_arch", "encoder"} <= set(ckpt):
        raise ValueError(f"checkpoint {path!r} is not a self-play checkpoint: expected {expected}")
    if ckpt["encoder"] not in ENCODERS:
        raise ValueError(f"checkpoint {path!r} was trained on encoder {ckpt['encoder']!r}: "
                         f"known encoders are {sorted(ENCODERS)}")
    try:
        net = ActorCritic(ckpt["net_arch"], ckpt.get("arch", "mlp"), encoder=ckpt["encoder"]).to(device)
    except (TypeError, ValueError) as e:
        raise ValueError(f"checkpoint {path!r}: bad network description ({e})") from None
    try:
        net.load_state_dict(ckpt["state_dict"])
    except Exception as e:
        raise ValueError(f"checkpoint {path!r}: its weights do not fit ActorCritic({ckpt['net_arch']}) ({e})") from None
    net.eval()
    return net


class TorchPolicy:
    """Greedy (argmax) play from a checkpoint; ``deterministic=False`` samples instead."""

    def __init__(self, path: str | Path, deterministic: bool = True, device: str = "cpu") -> None:
        path = Path(path)
        if not path.exists():
            raise ValueError(f"checkpoint {str(path)!r} does not exist")
        self.path = str(path)
        self.deterministic = deterministic
        self.device = device
        self._sb3: Any = None
        self._net: ActorCritic | None = None
        self._rng = np.random.default_rng()
        if path.suffix == ".zip":
            from sb3_contrib import MaskablePPO

            try:
                self._sb3 = MaskablePPO.load(self.path, device=device)
            except Exception as e:  # a corrupt or foreign zip: name the file and what was expected
                raise ValueError(f"checkpoint {self.path!r} cannot be read as an sb3-contrib MaskablePPO "
                                 f"model ({type(e).__name__}: {e})") from None
            space = getattr(self._sb3, "observation_space", None)
            shapes = {ruleset_of_encoder(e).shape: e for e in ENCODERS}
            if getattr(space, "shape", None) not in shapes:
                raise ValueError(f"checkpoint {self.path!r} expects observations of shape "
                                 f"{getattr(space, 'shape', None)}: the encoders' planes are "
                                 + ", ".join(f"{e} {s}" for s, e in shapes.items()))
        elif path.suffix == ".pt":
            self._net = load_actor_critic(self.path, device)
        else:
            raise ValueError(f"unknown checkpoint type {path.suffix!r} of {self.path!r}: "
                             f"allowed .zip (MaskablePPO) or .pt (self-play ActorCritic)")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        """A network meets only the planes of the encoder it was trained on."""
        want = self._net.shape if self._net is not None else None
        if want is not None and tuple(shape) != want:
            raise ValueError(f"checkpoint {self.path!r} was trained on {self._net.encoder!r} planes {want}, "
                             f"got observations of shape {tuple(shape)} (another ruleset?)")

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions for many decisions in one forward pass (the arena's batched path)."""
        self._check_shape(observations.shape[1:])
        if self._net is None:
            return np.array([self(o, m) for o, m in zip(observations, masks, strict=True)], dtype=np.int64)
        with torch.no_grad():
            obs = torch.as_tensor(observations, dtype=torch.float32, device=self.device)
            logits, _ = self._net(obs, torch.as_tensor(masks, device=self.device))
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
        if self.deterministic:
            return int(logits.argmax(dim=-1).item())
        probs = torch.softmax(logits, dim=-1).squeeze(0).cpu().numpy().astype(np.float64)
        return int(self._rng.choice(len(probs), p=probs / probs.sum()))

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "deterministic": self.deterministic, "device": self.device}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], state["deterministic"], state["device"])
