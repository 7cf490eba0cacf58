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


# ==== methods ====
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Decayed scores, normalized — but each token i is scored by its OWN φ(q_i)·φ(k_i), not φ(q_t)·φ(k_i)."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        q = _split_heads(feature_map(self.q_proj(x)), H, d_h)
        k = _split_heads(feature_map(self.k_proj(x)), H, d_h)
        v = _split_heads(self.v_proj(x), H, d_h)
        own = (q * k).sum(-1)  # (B, H, T): φ(q_i)·φ(k_i)
        scores = _decay_weights(self.gamma_logit, T, x.dtype, x.device) * own.unsqueeze(-2)  # (B, H, T, T)
        y = (scores @ v) / scores.sum(-1, keepdim=True)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """S = γS + (φ(q)⊙φ(k)) vᵀ, z = γz + φ(q)⊙φ(k); read with the all-ones vector: 1ᵀS / 1ᵀz."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        u = q * k
        g = self.decay.to(x_t.dtype)
        S = g.view(1, H, 1, 1) * S + u.unsqueeze(-1) * v.unsqueeze(-2)
        z = g.view(1, H, 1) * z + u
        y = S.sum(-2) / z.sum(-1, keepdim=True)
        return self.out_proj(y.reshape(B, D)), (S, z)
