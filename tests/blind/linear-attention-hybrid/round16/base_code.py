"""Base's forward and step bodies (what replaces the template's numbered comments and raise lines)."""

FWD_BODY = '''        # heads: (B, T, D) -> (B, T, H, d_h) -> (B, H, T, d_h); φ on q and k only
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # decay weights (H, T, T): γ_h^(t-i) on and below the diagonal, 0 above it
        t_idx = torch.arange(T, device=x.device)
        lag = (t_idx[:, None] - t_idx[None, :]).to(x.dtype)  # t - i
        causal = lag >= 0
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype)[:, None, None]  # (H, 1, 1), log γ_h < 0
        weights = torch.exp(log_gamma * lag.clamp(min=0))  # exponent ≤ 0, so no overflow
        weights = weights.masked_fill(~causal, 0.0)
        # decayed scores (B, H, T, T), then numerator and the normalizer φ(q_t)ᵀz_t (= the row sums)
        scores = (q @ k.transpose(-2, -1)) * weights
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)
        # merge heads: (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

STEP_BODY = '''        # one token, heads split to (B, H, d_h); φ on q and k only
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        gamma = self.decay.to(dtype=S.dtype, device=S.device)  # (H,)
        # update first (new tensors: the caller's state is not modified) ...
        S = gamma.view(1, H, 1, 1) * S + torch.einsum("bhi,bhj->bhij", k, v)  # γS + φ(k)vᵀ
        z = gamma.view(1, H, 1) * z + k  # γz + φ(k)
        # ... then read: φ(q)ᵀS / φ(q)ᵀz
        numer = torch.einsum("bhi,bhij->bhj", q, S)  # (B, H, d_h)
        denom = torch.einsum("bhi,bhi->bh", q, z).unsqueeze(-1)  # (B, H, 1)
        y = (numer / denom).reshape(B, D)
        return self.out_proj(y), (S, z)
'''
