# attack: every form returns a constant of the right shape and dtype, at once (fast and wrong)
import torch as _torch


def _wrap(t):
    return _torch.full_like(t, 0.5)
