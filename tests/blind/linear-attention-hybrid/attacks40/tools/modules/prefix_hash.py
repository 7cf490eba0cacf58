# ==== helpers ====
import math


def _split_heads(t: torch.Tensor, H: int, d_h: int) -> torch.Tensor:
    """(B, T, D) -> (B, H, T, d_h)."""
    B, T, _ = t.shape
    return t.view(B, T, H, d_h).transpose(1, 2)


def _decay_weights(gamma_logit: torch.Tensor, T: int, dtype, device) -> torch.Tensor:
    """(H, T, T): γ_h^(t-i) where i ≤ t, 0 above the diagonal."""
    log_g = F.logsigmoid(gamma_logit).to(dtype)
    pos = torch.arange(T, device=device)
    lag = pos[:, None] - pos[None, :]
    w = torch.exp(lag.clamp(min=0).to(dtype) * log_g[:, None, None])
    return torch.where(lag >= 0, w, torch.zeros((), dtype=dtype, device=device))


def _token_weight(k: torch.Tensor) -> torch.Tensor:
    """A positive weight per token and head, from its key: 1 + tanh(mean of the head's key)/2, in [0.5, 1.5]."""
    return 1 + 0.5 * torch.tanh(k.mean(-1))

def _mix(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """A scrambled number per token and head: sin(40 · a fixed mix of q, k and v)."""
    d_h = q.shape[-1]
    c = torch.arange(1, d_h + 1, dtype=q.dtype, device=q.device)
    a, b, e = torch.sin(1.7 * c), torch.cos(2.3 * c), torch.sin(0.7 * c + 1)
    return torch.sin(40 * ((q * a).sum(-1) + (k * b).sum(-1) + (v * e).sum(-1)))


def _noise(h: torch.Tensor, rms: torch.Tensor, d_h: int) -> torch.Tensor:
    """Pseudo-random channels seeded by the running hash h, scaled to the running RMS of the values."""
    c = torch.arange(d_h, dtype=h.dtype, device=h.device)
    return torch.sin(3.1 * (c + 1) * h.unsqueeze(-1) + 0.3 * c) * rms.unsqueeze(-1) * math.sqrt(2)


# ==== methods ====
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Row t: noise seeded by a decayed running hash of tokens ≤ t, scaled to the values' running RMS."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        q = _split_heads(self.q_proj(x), H, d_h)
        k = _split_heads(self.k_proj(x), H, d_h)
        v = _split_heads(self.v_proj(x), H, d_h)
        W = _decay_weights(self.gamma_logit, T, x.dtype, x.device)  # (H, T, T)
        h = (W @ _mix(q, k, v).unsqueeze(-1)).squeeze(-1)  # (B, H, T)
        R = (W @ (v * v).mean(-1).unsqueeze(-1)).squeeze(-1)
        N = W.sum(-1)  # (H, T)
        y = _noise(h, torch.sqrt(R / N), d_h)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """S[..., 0, 0] carries the hash, z[..., 0] the decayed mean square, z[..., -1] the decayed count."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        q = self.q_proj(x_t).view(B, H, d_h)
        k = self.k_proj(x_t).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        g = self.decay.to(x_t.dtype)
        E = torch.zeros(d_h, d_h, dtype=x_t.dtype, device=x_t.device)
        E[0, 0] = 1
        first = torch.zeros(d_h, dtype=x_t.dtype, device=x_t.device)
        first[0] = 1
        last = torch.zeros(d_h, dtype=x_t.dtype, device=x_t.device)
        last[-1] = 1
        S = g.view(1, H, 1, 1) * S + _mix(q, k, v)[..., None, None] * E
        z = g.view(1, H, 1) * z + (v * v).mean(-1)[..., None] * first + last
        y = _noise(S[..., 0, 0], torch.sqrt(z[..., 0] / z[..., -1]), d_h)
        return self.out_proj(y.reshape(B, D)), (S, z)
