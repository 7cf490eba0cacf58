# ==== helpers ====
def _split_heads(t: torch.Tensor, H: int, d_h: int) -> torch.Tensor:
    """(B, T, D) -> (B, H, T, d_h)."""
    B, T, _ = t.shape
    return t.view(B, T, H, d_h).transpose(1, 2)


def _decay_weights(gamma_logit: torch.Tensor, T: int, dtype, device) -> torch.Tensor:
    """(H, T, T): γ_h^(t-i) where i ≤ t, 0 above the diagonal; exp(lag · logsigmoid) stays finite."""
    log_g = F.logsigmoid(gamma_logit).to(dtype)
    pos = torch.arange(T, device=device)
    lag = pos[:, None] - pos[None, :]
    w = torch.exp(lag.clamp(min=0).to(dtype) * log_g[:, None, None])
    return torch.where(lag >= 0, w, torch.zeros((), dtype=dtype, device=device))


# ==== methods ====
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Parallel reference: x (B, T, D) -> (B, T, D), all positions at once."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        q = _split_heads(feature_map(self.k_proj(x)), H, d_h)  # the keys read the state
        k = _split_heads(feature_map(self.k_proj(x)), H, d_h)
        v = _split_heads(self.v_proj(x), H, d_h)
        weights = _decay_weights(self.gamma_logit, T, x.dtype, x.device)  # (H, T, T)
        scores = (q @ k.transpose(-2, -1)) * weights  # (B, H, T, T)
        y = (scores @ v) / scores.sum(-1, keepdim=True)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z))."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        q = feature_map(self.k_proj(x_t)).view(B, H, d_h)  # the key reads the state
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        g = self.decay.to(x_t.dtype)
        S = g.view(1, H, 1, 1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # update first
        z = g.view(1, H, 1) * z + k
        y = torch.einsum("bhd,bhde->bhe", q, S) / (q * z).sum(-1, keepdim=True)  # then read
        return self.out_proj(y.reshape(B, D)), (S, z)
