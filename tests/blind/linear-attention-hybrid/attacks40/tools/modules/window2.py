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
        """Decayed linear-attention scores over a band of two: token t and token t-1 only."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        q = _split_heads(feature_map(self.q_proj(x)), H, d_h)
        k = _split_heads(feature_map(self.k_proj(x)), H, d_h)
        v = _split_heads(self.v_proj(x), H, d_h)
        band = torch.eye(T, dtype=x.dtype, device=x.device)  # (T, T)
        sub = torch.diag_embed(torch.ones(max(T - 1, 0), dtype=x.dtype, device=x.device), offset=-1)
        weights = band + self.decay.to(x.dtype).view(H, 1, 1) * sub  # (H, T, T): 1 on the diagonal, γ below it
        scores = (q @ k.transpose(-2, -1)) * weights
        y = (scores @ v) / scores.sum(-1, keepdim=True)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """(S, z) hold the previous token's φ(k)vᵀ and φ(k) only; the read adds γ times them to this token's."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S_prev, z_prev = state
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        g = self.decay.to(x_t.dtype)
        S = k.unsqueeze(-1) * v.unsqueeze(-2)
        z = k
        S_read = S + g.view(1, H, 1, 1) * S_prev
        z_read = z + g.view(1, H, 1) * z_prev
        y = torch.einsum("bhd,bhde->bhe", q, S_read) / (q * z_read).sum(-1, keepdim=True)
        return self.out_proj(y.reshape(B, D)), (S, z)
