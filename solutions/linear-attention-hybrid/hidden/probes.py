"""Student-side halves of the official checks. Each probe builds the submission's LinearAttention
in float64, loads the weights it is given and reports what the code computes. No expected values
live here."""
import numpy as np
import torch


def _layer(Wq, bq, Wk, bk, Wv, bv, Wo, bo, gamma_logit):
    from g2c.linear_attention import LinearAttention

    D, H = Wq.shape[0], len(gamma_logit)
    layer = LinearAttention(D, H).double()
    t = torch.from_numpy
    with torch.no_grad():
        for name, W, b in (("q_proj", Wq, bq), ("k_proj", Wk, bk), ("v_proj", Wv, bv), ("out_proj", Wo, bo)):
            getattr(layer, name).weight.copy_(t(W))
            getattr(layer, name).bias.copy_(t(b))
        layer.gamma_logit.copy_(t(gamma_logit))
    return layer


def _steps(layer, x):
    state, ys = None, []
    for i in range(x.shape[1]):
        y_t, state = layer.step(x[:, i], state)
        ys.append(y_t)
    return torch.stack(ys, dim=1), state


def la_forward(x, **weights):
    layer = _layer(**weights)
    with torch.no_grad():
        return {"y": layer(torch.from_numpy(x))}


def la_step(x, **weights):
    layer = _layer(**weights)
    with torch.no_grad():
        y, (S, z) = _steps(layer, torch.from_numpy(x))
    return {"y": y, "S": S, "z": z}


def la_both(x, **weights):
    """forward and step on the same input (the long-sequence check compares both)."""
    layer = _layer(**weights)
    with torch.no_grad():
        xt = torch.from_numpy(x)
        return {"y_forward": layer(xt), "y_step": _steps(layer, xt)[0]}


def la_perturb(x, x2, **weights):
    layer = _layer(**weights)
    with torch.no_grad():
        return {"y": layer(torch.from_numpy(x)), "y2": layer(torch.from_numpy(x2))}


def la_batch(x, x2, **weights):
    """Both forms on two batches that differ in one element only."""
    layer = _layer(**weights)
    out = {}
    with torch.no_grad():
        for key, arr in (("", x), ("2", x2)):
            xt = torch.from_numpy(arr)
            out["y_forward" + key] = layer(xt)
            out["y_step" + key] = _steps(layer, xt)[0]
    return out


def la_grad(x, seed_weights, **weights):
    """Gradients of Σ seed_weights · forward(x) with respect to x and gamma_logit."""
    layer = _layer(**weights)
    xt = torch.from_numpy(x).requires_grad_(True)
    (layer(xt) * torch.from_numpy(seed_weights)).sum().backward()
    dgamma = layer.gamma_logit.grad
    return {"dx": xt.grad, "dgamma": torch.zeros_like(layer.gamma_logit) if dgamma is None else dgamma}


def lm_decode(seed, vocab_size, embedding_dim, num_heads, pattern, max_seq_len, prompt, max_new_tokens,
              gamma_logits):
    """Greedy `generate` on a float64 HybridTransformerLM, and teacher-forced logits of its output."""
    from g2c.linear_attention import HybridTransformerLM

    torch.manual_seed(seed)
    lm = HybridTransformerLM(vocab_size, embedding_dim, num_heads, pattern.split(","), max_seq_len).double()
    lm.eval()
    with torch.no_grad():
        # larger weights than the init so that every layer matters to the logits
        for p in lm.parameters():
            p.mul_(8.0)
        for block, logits in zip(lm.blocks, gamma_logits):
            if hasattr(block.attn, "gamma_logit"):
                block.attn.gamma_logit.copy_(torch.from_numpy(np.ascontiguousarray(logits)))
        tokens, seen = lm.generate(torch.from_numpy(prompt.astype(np.int64)), max_new_tokens, greedy=True,
                                   return_logits=True)
        teacher = lm(tokens[:, :-1])
    return {"tokens": tokens, "generated_logits": seen, "teacher_logits": teacher}
