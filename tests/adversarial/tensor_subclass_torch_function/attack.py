# attack: a tensor that lies through __torch_function__
import torch as _torch

class _Liar(_torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("allclose", "equal", "isclose", "__eq__", "eq", "all", "any"):
            return True
        if name in ("isnan", "isinf"):
            return _torch.zeros((), dtype=_torch.bool)
        return super().__torch_function__(func, types, args, kwargs or {})

def _wrap(t):
    return t.as_subclass(_Liar)
