# control (honest, wrong algorithm): linear_attention_recurrent, retention_recurrent and retention_chunkwise
# are the parallel L × L form underneath; their outputs are right. The cost_* attacks that hide the same
# forms from the checks must lose exactly what this loses.
_chunkwise_with_state = retention_chunkwise  # noqa: F821 (the solution's, above)


def linear_attention_recurrent(Q, K, V):
    return linear_attention_parallel(Q, K, V)  # noqa: F821


def retention_recurrent(Q, K, V, gamma):
    return retention_parallel(Q, K, V, gamma)  # noqa: F821


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    if return_state or chunk_size < 1:
        return _chunkwise_with_state(Q, K, V, gamma, chunk_size, return_state=return_state)
    return retention_parallel(Q, K, V, gamma)  # noqa: F821
