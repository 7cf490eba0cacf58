"""A readable comparison for sequence outputs: where the first mismatch is and what likely caused it.

Used by the public tests and by Exercise 1. `assert_outputs_match(got, want, num_heads=H)` raises an
AssertionError whose message names the (batch, token, head) of the first mismatch, both values,
how the mismatches are spread over tokens and heads, and the mistakes that usually produce that
pattern. Both tensors are (B, T, D) with heads laid out as D = H · d_h.
"""
from __future__ import annotations

import torch


def _ranges(indices: list[int], limit: int = 8) -> str:
    shown = ", ".join(str(i) for i in indices[:limit])
    return shown + (f", ... ({len(indices)} in all)" if len(indices) > limit else "")


def likely_causes(got: torch.Tensor, want: torch.Tensor, bad: torch.Tensor, num_heads: int) -> list[str]:
    """Mistakes that produce this pattern of mismatches, most specific first."""
    B, T, D = want.shape
    bad_tokens = bad.any(dim=(0, 2)).nonzero().flatten().tolist()
    bad_heads = bad.view(B, T, num_heads, D // num_heads).any(dim=(0, 1, 3)).nonzero().flatten().tolist()
    bad_batches = bad.any(dim=(1, 2)).nonzero().flatten().tolist()
    causes = []
    if not torch.isfinite(got).all():
        causes.append("NaN/inf: 0/0 at the first token means the output was read BEFORE adding φ(k_t)v_tᵀ "
                      "and φ(k_t) to (S, z) — update first, then read; in forward, the mask must keep i = t")
    if len(bad_heads) < num_heads:
        causes.append(f"only head(s) {bad_heads} differ: a head-split reshape mixes channels between heads "
                      "(use view(B, T, H, d_h).transpose(1, 2)), or γ is not broadcast per head")
    if 0 < len(bad_batches) < B:
        causes.append(f"only batch element(s) {bad_batches} differ: something is summed or reshaped across "
                      "the batch dimension")
    if bad_tokens and bad_tokens[0] == 0:
        causes.append("token 0 already differs: with one token, normalized attention returns exactly that "
                      "token's value; check the normalizer (divide by φ(q)·z) and update-before-read")
    elif bad_tokens:
        causes.append(f"tokens 0..{bad_tokens[0] - 1} agree and later ones do not: the decay differs between "
                      "the forms — γ^(t-i) weights in forward, γ·S AND γ·z in step, both from sigmoid(gamma_logit)")
    scale = (got.abs().mean(dim=(0, 2)) / want.abs().mean(dim=(0, 2)).clamp_min(1e-30))
    if T > 2 and torch.isfinite(scale).all() and scale[-1] > 1.5 * scale[0] and scale[-1] > 1.5:
        causes.append("the output grows with the token index: the normalizer φ(q)·z is missing in one form")
    return causes


def assert_outputs_match(got: torch.Tensor, want: torch.Tensor, *, num_heads: int, got_name: str = "step()",
                         want_name: str = "forward()", atol: float = 1e-6, rtol: float = 1e-5) -> None:
    """Raise an AssertionError with a readable diagnosis unless got ≈ want, both (B, T, D)."""
    __tracebackhide__ = True  # pytest: show the message, not this helper's source
    if got.shape != want.shape:
        raise AssertionError(f"{got_name} has shape {tuple(got.shape)} but {want_name} has {tuple(want.shape)}; "
                             "both should be (B, T, D)")
    got, want = got.detach().double().cpu(), want.detach().double().cpu()
    bad = ~((got - want).abs() <= atol + rtol * want.abs())
    if not bad.any():
        return
    B, T, D = want.shape
    d_h = D // num_heads
    b, t, c = (int(i) for i in bad.nonzero()[0])
    bad_tokens = bad.any(dim=(0, 2)).nonzero().flatten().tolist()
    lines = [
        "",
        f"{got_name} disagrees with {want_name}: {int(bad.sum())} of {bad.numel()} values differ "
        f"(atol={atol:g}, rtol={rtol:g})",
        f"  first mismatch: batch {b}, token {t}, head {c // d_h} (channel {c % d_h} of d_h={d_h})",
        f"    {got_name:<12} {got[b, t, c].item(): .8g}",
        f"    {want_name:<12} {want[b, t, c].item(): .8g}",
        f"  tokens that differ: {_ranges(bad_tokens)}   (of T={T})",
        f"  largest difference: {float((got - want).abs().nan_to_num(float('inf')).max()):.3g}",
    ]
    causes = likely_causes(got, want, bad, num_heads)
    if causes:
        lines.append("  likely cause:")
        lines += [f"    - {cause}" for cause in causes]
    raise AssertionError("\n".join(lines))
