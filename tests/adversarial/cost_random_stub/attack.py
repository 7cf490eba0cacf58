# attack: every form returns random numbers of the right shape and dtype, at once (fast and wrong)
import torch as _torch


def _wrap(t):
    return _torch.randn_like(t)
