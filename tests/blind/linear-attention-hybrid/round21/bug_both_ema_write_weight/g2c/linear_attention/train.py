"""Small training and evaluation loops shared by the exercises (CPU-friendly, seeded)."""
from __future__ import annotations

import math
import time

import torch
import torch.nn.functional as F

from .data import RecallTask


def check_runs(model) -> None:
    """Run `model` on a few tokens, teacher-forced and step by step, before any long training.

    An unfinished `LinearAttention.forward` or `.step` (or one that breaks on a real model) raises
    here within a second, instead of after another model of the comparison has trained for minutes.
    """
    idx = torch.zeros(1, min(4, model.max_seq_len), dtype=torch.long)
    try:
        with torch.no_grad():
            model(idx)  # forward: the path training takes
            model.generate(idx[:, :1], idx.shape[1] - 1, greedy=True)  # step: the path decoding takes
    except NotImplementedError as exc:
        raise NotImplementedError(f"{exc}. This cell trains models with linear layers: finish "
                                  "LinearAttention.forward and .step first (pytest tests -x).") from exc


def get_batch(data: torch.Tensor, batch_size: int, seq_len: int, generator: torch.Generator):
    """Random windows of a 1-D token tensor: inputs (B, T) and next-token targets (B, T)."""
    start = torch.randint(0, len(data) - seq_len - 1, (batch_size,), generator=generator)
    offsets = torch.arange(seq_len)
    x = data[start[:, None] + offsets]  # (B, T)
    y = data[start[:, None] + offsets + 1]  # (B, T)
    return x, y


def warmup_cosine(opt: torch.optim.Optimizer, steps: int) -> torch.optim.lr_scheduler.LambdaLR:
    """Linear warm-up over the first 10% of the steps, then cosine decay to zero."""
    warmup = max(1, steps // 10)
    return torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * min(s, steps) / steps)))


def train_lm(model, data: torch.Tensor, steps: int, batch_size: int = 16, seq_len: int = 128, lr: float = 3e-3,
             seed: int = 0, log_every: int = 0) -> list[float]:
    """AdamW with linear warm-up and cosine decay; returns the training loss of every step."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    sched = warmup_cosine(opt, steps)
    losses, start = [], time.perf_counter()
    model.train()
    for step in range(steps):
        x, y = get_batch(data, batch_size, seq_len, gen)
        loss = model.loss(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if log_every and (step % log_every == 0 or step == steps - 1):
            print(f"  step {step:5d}  loss {loss.item():.3f}  ({time.perf_counter() - start:.0f} s)")
    model.eval()
    return losses


@torch.no_grad()
def estimate_loss(model, data: torch.Tensor, batch_size: int = 16, seq_len: int = 128, batches: int = 10,
                  seed: int = 1234) -> float:
    """Mean next-token loss over fixed random windows (the same windows for every model)."""
    gen = torch.Generator().manual_seed(seed)
    model.eval()
    return sum(model.loss(*get_batch(data, batch_size, seq_len, gen)).item() for _ in range(batches)) / batches


def recall_loss(model, tokens: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Cross-entropy on the recalled values only."""
    logits = model(tokens[:, :-1])  # (B, L-1, V)
    targets = tokens[:, 1:]
    m = mask[:, :-1]
    return F.cross_entropy(logits[m], targets[m])


def train_recall(model, task: RecallTask, steps: int, batch_size: int = 32, lr: float = 3e-3, seed: int = 0,
                 log_every: int = 0) -> list[float]:
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = warmup_cosine(opt, steps)
    losses = []
    model.train()
    for step in range(steps):
        tokens, mask, _ = task.batch(batch_size, gen)
        loss = recall_loss(model, tokens, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if log_every and (step % log_every == 0 or step == steps - 1):
            print(f"  step {step:5d}  recall loss {loss.item():.3f}")
    model.eval()
    return losses


@torch.no_grad()
def recall_accuracy_by_distance(model, task: RecallTask, bins: list[int], samples: int = 512,
                                seed: int = 99) -> list[float]:
    """Accuracy of the recalled values, bucketed by distance: bins [a, b, c] give [a, b), [b, c)."""
    gen = torch.Generator().manual_seed(seed)
    tokens, mask, distance = task.batch(samples, gen)
    pred = model(tokens[:, :-1]).argmax(dim=-1)  # (N, L-1)
    right = (pred == tokens[:, 1:])[mask[:, :-1]]
    dist = distance[:, :-1][mask[:, :-1]]
    out = []
    for lo, hi in zip(bins[:-1], bins[1:]):
        sel = (dist >= lo) & (dist < hi)
        out.append(right[sel].float().mean().item() if sel.any() else float("nan"))
    return out
