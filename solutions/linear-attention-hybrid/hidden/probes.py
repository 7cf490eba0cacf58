"""Student-side halves of the official checks. Each probe builds the submission's LinearAttention
in float64, loads the weights it is given and reports what the code computes. No expected values
live here. Probes that run several times take numbered inputs (x0, x1, ...; weights with the same
suffix override the shared ones) and return numbered outputs.

Every call of the student's code goes through the harness (`call`, `steps`: grader/sandbox/inside/caller.py), on
a thread of its own: what the code can see above itself is the same in every probe, so the run that measures
`step` looks, from inside it, like the runs that compare it. Tokens are handed to `step` the same way everywhere
too (each a fresh, contiguous float64 array of numpy's)."""
import numpy as np
import torch
from lrkit_harness import call, steps

WEIGHTS = ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo", "gamma_logit")


def _t(a):
    """An input as every probe hands it over: over a C-contiguous, writable float64 array of numpy's own."""
    a = np.asarray(a)
    if not (a.dtype == np.float64 and a.flags.c_contiguous and a.flags.writeable and a.flags.owndata):
        a = np.array(a, dtype=np.float64, order="C", copy=True)
    return torch.from_numpy(a)


DTYPES, MODES = {"float64": torch.float64, "float32": torch.float32}, ("train", "eval")


def _layer(dtype="float64", mode="train", trained=False, **weights):
    """The student's LinearAttention with the given weights (made on the student's thread): in float64 and in
    training mode (as `nn.Module` starts), or, where a case asks (``dtype``, ``mode``, ``trained``: the measured
    step's first part, `verdicts_structure.NOTEBOOK`), as the notebook's models decode: in float32, trained, in eval
    mode."""
    if dtype not in DTYPES or mode not in MODES or not isinstance(trained, bool):
        raise ValueError(f"a layer in {dtype!r}, mode {mode!r}, trained {trained!r}: expected one of "
                         f"{sorted(DTYPES)}, {MODES}, a bool")
    return call(_build, DTYPES[dtype], mode == "eval", trained, **weights)


TRAIN_X = (2, 32)  # the batch and length a trained layer's one forward and backward take (`_trained`)


def _build(dtype, evaluating, trained, Wq, bq, Wk, bk, Wv, bv, Wo, bo, gamma_logit):
    from g2c.linear_attention import LinearAttention

    D, H = Wq.shape[0], len(gamma_logit)
    layer = LinearAttention(D, H).double()
    with torch.no_grad():
        for name, W, b in (("q_proj", Wq, bq), ("k_proj", Wk, bk), ("v_proj", Wv, bv), ("out_proj", Wo, bo)):
            getattr(layer, name).weight.copy_(_t(W))
            getattr(layer, name).bias.copy_(_t(b))
        layer.gamma_logit.copy_(_t(gamma_logit))
    if dtype != torch.float64:
        layer = layer.to(dtype)
    if trained:
        _trained(layer, D, dtype)
    if evaluating:
        layer.eval()
    return layer


def _trained(layer, D, dtype):
    """The layer through what `train_lm` does to a model's layers, without the optimizer's step (the weights stay the
    reference's): a forward in training mode with autograd on, a backward, the gradients left on the parameters.
    A forward that raises or a loss that is not finite leaves the layer as it is: forward's bugs are its own items',
    not the step's (this is how the measured step's layer is made, not a check of forward)."""
    x = torch.randn(*TRAIN_X, D, generator=torch.Generator().manual_seed(0), dtype=torch.float64).to(dtype)
    layer.train()
    with torch.enable_grad():
        try:
            loss = layer(x).square().mean()
            if bool(torch.isfinite(loss)):
                loss.backward()
        except Exception:  # (a forward that raises is judged by forward's own items)
            pass


def _layer_for(kw, i):
    return _layer(kw.get(f"dtype{i}", "float64"), kw.get(f"mode{i}", "train"), kw.get(f"trained{i}", False),
                  **{name: kw.get(f"{name}{i}", kw.get(name)) for name in WEIGHTS})


def _token(x, t, dtype=torch.float64):
    """x[:, t] as a decoder hands it over: a tensor of its own (a view where x is laid out as a view itself: the
    layout cases; drawn now where x is handed over token by token: a cost case's, `Seeded(stream=True)`), in the
    layer's ``dtype``."""
    if not isinstance(x, torch.Tensor):
        token = torch.from_numpy(x.token(t))
    elif not x.is_contiguous():
        token = x[:, t]
    else:
        token = torch.from_numpy(np.array(x[:, t].numpy(), order="C", copy=True))
    return token if dtype == torch.float64 else token.to(dtype)


def _steps(layer, x, state=None, dtype=torch.float64):
    """x (B, T, D) stepped into the layer token by token, from ``state`` (None: the layer's own start); each output
    copied, as it comes, into one buffer made at the first step (shaped as that output, typed as x: outputs in a
    smaller dtype free no room for a history of them, blind attacks22; handed back in their own dtype): between two
    steps the probe allocates nothing and keeps nothing of the student's, in every run that steps, the one that
    measures a step too (blind attacks13 told them apart by a kept copy of every output, and by the heap it left).
    Tokens are handed over in the layer's ``dtype``; the buffer is x's all the same.
    Returns the outputs (B, T, ...) and the state the last step returned. An output without the batch axis (a
    batch of one squeezed away: a layout bug, the equivalence items') is kept token by token, (T, ...), so that the
    property checks read its values in order (`verdicts._in_layout`; blind round10 lost the batch and head items
    to a (D, T) buffer read as (1, T, D))."""
    T, B, out = x.shape[1], x.shape[0], []
    typed = x.dtype if isinstance(x, torch.Tensor) else torch.float64  # (a stream's tokens are float64)

    def take(t, y):
        y = torch.as_tensor(y).detach()
        batched = y.dim() > 0 and y.shape[0] == B
        if not out:
            # zeroed as it is made: every page of it is held from the first step on, so a history kept early and
            # dropped late is held on top of it (blind attacks27: the model's peak came at its last steps, as its
            # buffer filled, and a history of the first half of the tokens, dropped at half-way, stayed under it)
            out.extend([y.new_zeros((B, T, *y.shape[1:]) if batched else (T, *y.shape), dtype=typed), y.dtype])
        row = out[0][:, t] if batched else out[0][t]
        if y.shape != row.shape:
            raise ValueError(f"step returned outputs of two shapes ({tuple(y.shape)} at token {t}, "
                             f"{tuple(row.shape)} at the first)")
        row.copy_(y)
    _, state = steps((layer, "step"), T, lambda t: ((_token(x, t, dtype),), {}), state=state, chained=True, take=take)
    return out[0].to(out[1]), call(tuple, state)


TAIL, EVERY = 64, 61  # grader.checks.DIGEST: what a long output is sent as (`_sent`)
LONG_BYTES = 4 << 20  # an output larger than this is sent as its digest


def _sent(out):
    """The outputs as the probe sends them: as they are, or, for an output over `LONG_BYTES` (the cost case's
    thousands of steps), its digest (`grader.checks.digest`: summed over the tokens, summed squared, the last
    `TAIL` tokens, every `EVERY`-th), made after the student's code returned, so nothing it can see differs."""
    sent = {}
    for key, y in out.items():
        if not (isinstance(y, torch.Tensor) and y.dim() >= 2 and y.numel() * 8 > LONG_BYTES):
            sent[key] = y
            continue
        y = y.detach()
        total, squares = _sums(y, 1)
        sent.update({f"{key}_sum": total, f"{key}_sq": squares, f"{key}_tail": y[:, -TAIL:].to(torch.float64),
                     f"{key}_every": y[:, ::EVERY].to(torch.float64)})
    return sent


DIGEST_TOKENS = 256  # tokens `_sums` reads at a time


def _sums(y, axis):
    """y summed over ``axis`` and its square summed, in float64, ``DIGEST_TOKENS`` tokens at a time: what the
    digest makes never holds more than a block of the outputs, so the run's memory peak is the measured call's
    (a full-size y * y after the call was a peak the student's code could free its history under: blind
    attacks24)."""
    total = squares = None
    for t0 in range(0, y.shape[axis], DIGEST_TOKENS):
        block = y.narrow(axis, t0, min(DIGEST_TOKENS, y.shape[axis] - t0)).to(torch.float64)
        part, part_sq = block.sum(axis), (block * block).sum(axis)
        total, squares = (part, part_sq) if total is None else (total.add_(part), squares.add_(part_sq))
    return total, squares


def _x(kw, i):
    """x{i} as a model hands it over: 'strided' is the non-contiguous (B, T, D) view of a (T, B, D)
    buffer transposed (a sequence-first pipeline), 'broadcast' expands the first batch row."""
    if hasattr(kw[f"x{i}"], "token"):  # handed over token by token (a cost case's x: `_token`)
        return kw[f"x{i}"]
    x, layout = _t(kw[f"x{i}"]), kw.get("layout", "plain")
    if layout == "strided":
        return x.transpose(0, 1).contiguous().transpose(0, 1)
    if layout == "broadcast":
        return x[:1].expand_as(x)
    return x


def forward_runs(n, **kw):
    """forward on n inputs x{i}, each with the shared weights or its own."""
    with torch.no_grad():
        return {f"y{i}": call(_layer_for(kw, i), _x(kw, i)) for i in range(n)}


class _Part:
    """Run i's tokens of a stream that holds the tokens of n runs one after the other, T each (a cost case's x:
    a stream's tokens are handed over once, in order: `Seeded(stream=True)`)."""

    def __init__(self, x, i, n):
        T = x.shape[-2] // n
        self.x, self.start, self.shape = x, i * T, (*x.shape[:-2], T, x.shape[-1])

    def token(self, t):
        return self.x.token(self.start + t)


def step_runs(n, **kw):
    """step token by token over x{i} (B, T, D) (``consecutive``: the n runs step x0's tokens one run after the other,
    T = x0's tokens / n each), from the state (S{i}, z{i}) if given, else from None, with a layer in float64 and
    training mode (or as ``dtype{i}``, ``mode{i}``, ``trained{i}`` say); returns every output and the state the last
    step returned. Each run's outputs are sent (a long one digested) before the next run starts, so a run of
    thousands of steps holds one run's outputs at a time."""
    out = {}
    with torch.no_grad():
        for i in range(n):
            dtype = DTYPES[kw.get(f"dtype{i}", "float64")]
            state = (_t(kw[f"S{i}"]).to(dtype), _t(kw[f"z{i}"]).to(dtype)) if f"S{i}" in kw else None
            x = _Part(kw["x0"], i, n) if kw.get("consecutive") else _x(kw, i)
            y, state = _steps(_layer_for(kw, i), x, state, dtype)
            out.update(_sent({f"y{i}": y, f"S{i}": state[0], f"z{i}": state[1]}))
            del y, state
    return out


def step_reuse(x_first, x_next, S, z, **weights):
    """One state handed to step twice, as beam search or a branching decoder does: step(x_first, state),
    then step(x_next, state) with the SAME state objects; beside step(x_next) from fresh copies."""
    layer = _layer(**weights)
    with torch.no_grad():
        fresh, _ = call((layer, "step"), _t(x_next), (_t(S), _t(z)))
        state = (_t(S), _t(z))
        call((layer, "step"), _t(x_first), state)
        reused, _ = call((layer, "step"), _t(x_next), state)
    return {"fresh": fresh, "reused": reused}


def la_grad(x, seed_weights, **weights):
    """Gradients of Σ seed_weights · forward(x) with respect to x and gamma_logit."""
    layer = _layer(**weights)
    xt = _t(x).requires_grad_(True)
    call(torch.Tensor.backward, (call(layer, xt) * _t(seed_weights)).sum())
    dgamma = layer.gamma_logit.grad
    return {"dx": xt.grad, "dgamma": torch.zeros_like(layer.gamma_logit) if dgamma is None else dgamma}
