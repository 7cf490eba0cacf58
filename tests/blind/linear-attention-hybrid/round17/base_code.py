"""base's bodies for LinearAttention.forward and .step (they replace the template's numbered comments and raise)."""

FWD_BODY = '''\
        # 1. projections; φ on q and k only; split heads (B, T, D) -> (B, T, H, d_h) -> (B, H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)
        # 2. decay weights (H, T, T): γ_h^(t-i) on and below the diagonal, 0 above it
        pos = torch.arange(T, device=x.device)
        lag = (pos[:, None] - pos[None, :]).to(x.dtype)  # t - i
        visible = lag >= 0  # i <= t: the token itself and its past
        log_gamma = F.logsigmoid(self.gamma_logit).to(x.dtype).view(H, 1, 1)  # log γ_h < 0
        decay = torch.exp(log_gamma * lag.clamp(min=0))  # exponent <= 0: never overflows
        weights = torch.where(visible, decay, torch.zeros_like(decay))
        # 3. decayed scores (B, H, T, T)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * weights
        # 4. numerator over the values, normalizer = row sums = φ(q_t)·z_t
        numer = scores @ v  # (B, H, T, d_h)
        denom = scores.sum(dim=-1, keepdim=True)  # (B, H, T, 1)
        y = numer / denom
        # 5. merge heads (B, H, T, d_h) -> (B, T, H, d_h) -> (B, T, D)
        y = y.transpose(1, 2).reshape(B, T, D)
        return self.out_proj(y)
'''

STEP_BODY = '''\
        # 1. this token's q, k, v, heads split to (B, H, d_h); φ on q and k only
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        # 2. γ per head, in the state's dtype and device
        gamma = self.decay.to(dtype=S.dtype, device=S.device)
        gamma_S = gamma.view(1, H, 1, 1)
        gamma_z = gamma.view(1, H, 1)
        # 3. update first, out of place (the caller's state is left as it was)
        S_new = gamma_S * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # γS + φ(k)vᵀ
        z_new = gamma_z * z + k  # γz + φ(k)
        # 4. then read: φ(q)ᵀS / φ(q)ᵀz
        numer = torch.einsum("bhd,bhde->bhe", q, S_new)  # (B, H, d_h)
        denom = (q * z_new).sum(dim=-1, keepdim=True)  # (B, H, 1)
        y = (numer / denom).reshape(B, D)
        return self.out_proj(y), (S_new, z_new)
'''
