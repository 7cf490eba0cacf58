"""The hybrid language model: transformer blocks whose attention is `full` or `linear`.

Reads top to bottom like nanoGPT: MLP, HybridBlock, HybridTransformerLM. The layer pattern is
a list such as ["linear", "linear", "linear", "full"] * repeats — mostly fixed-state recurrent
mixing, with an occasional full-attention layer that keeps every token addressable.
Positions are learned embeddings, so a model can never run past `max_seq_len`.
"""
from __future__ import annotations

from typing import Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F

from .attention import LinearAttention
from .full_attention import CausalSelfAttention
from .memory import MemoryBill, memory_bill

ATTENTION_KINDS = ("full", "linear")


class MLP(nn.Module):
    """The position-wise feed-forward network: D -> 4D -> D."""

    def __init__(self, embedding_dim: int):
        super().__init__()
        self.up = nn.Linear(embedding_dim, 4 * embedding_dim)
        self.down = nn.Linear(4 * embedding_dim, embedding_dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.gelu(self.up(x)))


class HybridBlock(nn.Module):
    """Pre-norm transformer block; `attn` chooses softmax attention ("full") or `LinearAttention`."""

    def __init__(self, embedding_dim: int, num_heads: int, attn: str):
        super().__init__()
        if attn not in ATTENTION_KINDS:
            raise ValueError(f"HybridBlock: attn={attn!r}; expected one of {ATTENTION_KINDS}")
        self.kind = attn
        self.ln_1 = nn.LayerNorm(embedding_dim)
        self.attn = CausalSelfAttention(embedding_dim, num_heads) if attn == "full" else LinearAttention(
            embedding_dim, num_heads
        )
        self.ln_2 = nn.LayerNorm(embedding_dim)
        self.mlp = MLP(embedding_dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))

    def step(self, x_t: torch.Tensor, state=None):
        """One token (B, D) through the block; `state` is a KV cache (full) or (S, z) (linear)."""
        a, state = self.attn.step(self.ln_1(x_t), state)
        x_t = x_t + a
        return x_t + self.mlp(self.ln_2(x_t)), state


class HybridTransformerLM(nn.Module):
    """Token + learned position embeddings, one HybridBlock per pattern entry, tied LM head."""

    def __init__(self, vocab_size: int, embedding_dim: int, num_heads: int, pattern: Sequence[str],
                 max_seq_len: int):
        super().__init__()
        if not pattern:
            raise ValueError("HybridTransformerLM: pattern is empty; give at least one of 'full' / 'linear'")
        self.vocab_size, self.embedding_dim, self.num_heads = vocab_size, embedding_dim, num_heads
        self.pattern = tuple(pattern)
        self.max_seq_len = max_seq_len
        self.tok_emb = nn.Embedding(vocab_size, embedding_dim)
        self.pos_emb = nn.Embedding(max_seq_len, embedding_dim)
        self.blocks = nn.ModuleList(HybridBlock(embedding_dim, num_heads, kind) for kind in self.pattern)
        self.ln_f = nn.LayerNorm(embedding_dim)
        self.lm_head = nn.Linear(embedding_dim, vocab_size, bias=False)
        self.lm_head.weight = self.tok_emb.weight  # weight tying (Press & Wolf 2017), as in GPT-2
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def _check_length(self, T: int) -> None:
        if T > self.max_seq_len:
            raise ValueError(f"sequence of {T} tokens is longer than max_seq_len={self.max_seq_len} "
                             "(positions are learned, so there is no embedding for position "
                             f"{self.max_seq_len})")

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """Teacher forcing: idx (B, T) -> logits (B, T, vocab) for every position at once."""
        B, T = idx.shape
        self._check_length(T)
        pos = torch.arange(T, device=idx.device)
        x = self.tok_emb(idx) + self.pos_emb(pos)  # (B, T, D)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))  # (B, T, vocab)

    def loss(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = self(idx)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))

    def init_states(self, batch_size: int, device=None, dtype=None) -> list:
        """One decoding state per layer: an empty KV cache or an empty (S, z)."""
        dtype = self.tok_emb.weight.dtype if dtype is None else dtype
        device = self.tok_emb.weight.device if device is None else device
        return [block.attn.init_state(batch_size, device=device, dtype=dtype) for block in self.blocks]

    def step(self, token: torch.Tensor, position: int, states: list) -> tuple[torch.Tensor, list]:
        """One token per sequence (B,) at `position` -> logits (B, vocab) and the new states."""
        self._check_length(position + 1)
        x = self.tok_emb(token) + self.pos_emb.weight[position]  # (B, D)
        new_states = []
        for block, state in zip(self.blocks, states):
            x, state = block.step(x, state)
            new_states.append(state)
        return self.lm_head(self.ln_f(x)), new_states

    @torch.no_grad()
    def generate(self, idx: torch.Tensor, max_new_tokens: int, temperature: float = 1.0,
                 top_k: int | None = None, greedy: bool = False, generator: torch.Generator | None = None,
                 return_logits: bool = False):
        """Decode with a KV cache in full layers and (S, z) in linear layers.

        The prompt idx (B, T0) is fed token by token through `step` (so prefill uses the same
        recurrent path as decoding). Returns the tokens (B, T0 + max_new_tokens) and, with
        `return_logits`, the logits seen at every fed position, (B, T0 + max_new_tokens - 1, vocab):
        these must equal `self(tokens[:, :-1])`, the teacher-forced logits.
        """
        B, T0 = idx.shape
        if T0 == 0:
            raise ValueError("generate: the prompt must hold at least one token")
        self._check_length(T0 + max_new_tokens - 1)
        states = self.init_states(B, device=idx.device)
        tokens, seen = idx, []
        for position in range(T0 + max_new_tokens - 1):
            logits, states = self.step(tokens[:, position], position, states)
            seen.append(logits)
            if position + 1 < tokens.size(1):
                continue  # still inside the prompt
            if greedy:
                nxt = logits.argmax(dim=-1)
            else:
                logits = logits / temperature
                if top_k is not None:
                    kth = torch.topk(logits, min(top_k, logits.size(-1))).values[:, -1:]
                    logits = logits.masked_fill(logits < kth, float("-inf"))
                nxt = torch.multinomial(torch.softmax(logits, dim=-1), 1, generator=generator).squeeze(1)
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
        if return_logits:
            return tokens, torch.stack(seen, dim=1)
        return tokens

    def memory_bill(self, T: int, batch_size: int = 1, bytes_per_value: int | None = None) -> MemoryBill:
        """Bytes of decoding state each layer holds after T tokens (default: this model's dtype)."""
        if bytes_per_value is None:
            bytes_per_value = self.tok_emb.weight.element_size()
        return memory_bill(self.pattern, T, self.embedding_dim, self.num_heads,
                           bytes_per_value=bytes_per_value, batch_size=batch_size)
