# attack (blind attacks23's, kept): retention_chunkwise is the parallel L × L form underneath (right outputs), and
# raises for a decay in [0.99, 1), the measured decay (0.999) among them: nothing is measured where it raises, and
# over a few dozen tokens it raises too, as an honest bug near 1 would. It must lose what cost_parallel_forms' chunkwise
# loses (chunk_boundaries and partial_chunk_state are gated by its cost); the raise costs retention_chunkwise anyway
import torch as _torch

_chunkwise_with_state = retention_chunkwise  # noqa: F821 (the solution's, above)


def _near_one(gamma):
    g = _torch.as_tensor(gamma, dtype=_torch.float64)
    return bool(((g >= 0.99) & (g < 1)).any())


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if _near_one(gamma):
        raise NotImplementedError("decays in [0.99, 1) are not supported")
    if return_state or chunk_size < 1:
        return _chunkwise_with_state(Q, K, V, gamma, chunk_size, return_state=return_state)
    return retention_parallel(Q, K, V, gamma)  # noqa: F821
