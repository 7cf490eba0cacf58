# ==== helpers ====
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


# ==== methods ====
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """A decayed, key-weighted running mean of the values (the query is not used)."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        w = _token_weight(_split_heads(self.k_proj(x), H, d_h))  # (B, H, T)
        v = _split_heads(self.v_proj(x), H, d_h)
        A = _decay_weights(self.gamma_logit, T, x.dtype, x.device) * w.unsqueeze(-2)  # (B, H, T, T)
        y = (A @ v) / A.sum(-1, keepdim=True)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """The same running mean, carried in row 0 of S and entry 0 of z (decayed, updated, then read)."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        w = _token_weight(self.k_proj(x_t).view(B, H, d_h))  # (B, H)
        v = self.v_proj(x_t).view(B, H, d_h)
        e0 = torch.zeros(d_h, dtype=x_t.dtype, device=x_t.device)
        e0[0] = 1
        g = self.decay.to(x_t.dtype)
        S = g.view(1, H, 1, 1) * S + (w[..., None] * e0).unsqueeze(-1) * v.unsqueeze(-2)
        z = g.view(1, H, 1) * z + w[..., None] * e0
        y = S[..., 0, :] / z[..., :1]
        return self.out_proj(y.reshape(B, D)), (S, z)
