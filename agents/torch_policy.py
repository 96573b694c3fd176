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

from pathlib import Path
from typing import Any

import numpy as np
import torch

from cnmahjong.envs.core.checks import bool_arg
from cnmahjong.envs.core.ruleset import Ruleset, encoder_names, get_ruleset, rulesets
from cnmahjong.envs.integrations.networks import ActorCritic, cpu_weights, load_actor_critic, save_actor_critic


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
            own = [e.name for e in rs.encodings]
            if self.encoder not in own:
                raise ValueError(f"checkpoint {self.path!r} was trained on encoder {self.encoder!r} "
                                 f"({encoder_names()[self.encoder]}); the {rs.name} rules need encoder "
                                 f"{' or '.join(repr(e) for e in own)}")

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
        shapes = {e.shape: e.name for rs in rulesets() for e in rs.encodings}
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


__all__ = ["ActorCritic", "TorchPolicy", "cpu_weights", "load_actor_critic", "save_actor_critic"]
