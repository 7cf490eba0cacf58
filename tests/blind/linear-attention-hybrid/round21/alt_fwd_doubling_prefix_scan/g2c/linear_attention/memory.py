"""Memory accounting: the bytes of decoding state each layer holds after T tokens.

    full   (MHA KV cache):  K and V, one row of D values per token  -> 2 · T · D values   (grows with T)
    linear ((S, z) state):  H matrices d_h × d_h plus H vectors d_h -> D²/H + D values   (fixed)

Both are per sequence; multiply by the batch size. Other cache geometries (grouped-query heads,
sliding windows) are deliberately not here: Exercise 5 asks you to work those out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch


@dataclass(frozen=True)
class LayerMemory:
    """One layer's decoding state after T tokens."""

    layer: int
    kind: str  # "full" or "linear"
    values: int  # numbers held
    bytes: int
    grows_with_T: bool


@dataclass(frozen=True)
class MemoryBill:
    """Per-layer and total decoding state of a stack after T tokens."""

    T: int
    bytes_per_value: int
    layers: tuple[LayerMemory, ...]

    @property
    def total_bytes(self) -> int:
        return sum(layer.bytes for layer in self.layers)

    @property
    def growing_bytes(self) -> int:
        """The part of the total that keeps growing as T grows."""
        return sum(layer.bytes for layer in self.layers if layer.grows_with_T)

    def table(self) -> str:
        rows = [f"{'layer':>5}  {'kind':<6}  {'bytes':>18}  grows with T"]
        rows += [f"{m.layer:>5}  {m.kind:<6}  {m.bytes:>18,}  {'yes' if m.grows_with_T else 'no'}"
                 for m in self.layers]
        rows.append(f"{'total':>5}  {'':<6}  {self.total_bytes:>18,}  ({self.growing_bytes:,} growing)")
        return "\n".join(rows)


def layer_state_values(kind: str, T: int, embedding_dim: int, num_heads: int) -> int:
    """How many numbers one layer keeps for one sequence after T tokens."""
    if embedding_dim % num_heads != 0:
        raise ValueError(f"embedding_dim={embedding_dim} is not divisible by num_heads={num_heads}")
    head_dim = embedding_dim // num_heads
    if kind == "full":
        return 2 * T * embedding_dim  # K and V: (H, T, d_h) each
    if kind == "linear":
        return num_heads * head_dim * head_dim + num_heads * head_dim  # S: (H, d_h, d_h), z: (H, d_h)
    raise ValueError(f"unknown layer kind {kind!r}; expected 'full' or 'linear'")


def memory_bill(pattern: Sequence[str], T: int, embedding_dim: int, num_heads: int,
                bytes_per_value: int = 2, batch_size: int = 1) -> MemoryBill:
    """The decoding-state bill of a layer pattern after T tokens (default fp16: 2 bytes a value)."""
    if T < 0:
        raise ValueError(f"T={T} must be ≥ 0")
    layers = []
    for i, kind in enumerate(pattern):
        values = batch_size * layer_state_values(kind, T, embedding_dim, num_heads)
        layers.append(LayerMemory(i, kind, values, values * bytes_per_value, grows_with_T=kind == "full"))
    return MemoryBill(T, bytes_per_value, tuple(layers))


def state_nbytes(states) -> int:
    """Bytes actually held by a (nested) decoding state: tensors, tuples and lists of them."""
    if isinstance(states, torch.Tensor):
        return states.numel() * states.element_size()
    if isinstance(states, (tuple, list)):
        return sum(state_nbytes(s) for s in states)
    if states is None:
        return 0
    raise TypeError(f"state_nbytes: cannot measure a {type(states).__name__}")
