"""Linear attention and recurrent memory: the fixed-state branch of efficient attention.

    feature_map, LinearAttention        attention.py       (you complete forward and step)
    CausalSelfAttention                 full_attention.py  softmax attention with a KV cache
    HybridBlock, HybridTransformerLM    model.py           a stack over a layer pattern
    memory_bill, state_nbytes           memory.py          bytes of decoding state after T tokens
    assert_outputs_match                testing.py         readable parallel-vs-recurrent comparison
"""
from .attention import LinearAttention, feature_map
from .full_attention import CausalSelfAttention
from .memory import LayerMemory, MemoryBill, layer_state_values, memory_bill, state_nbytes
from .model import HybridBlock, HybridTransformerLM
from .testing import assert_outputs_match

__all__ = [
    "CausalSelfAttention", "HybridBlock", "HybridTransformerLM", "LayerMemory", "LinearAttention", "MemoryBill",
    "assert_outputs_match", "feature_map", "layer_state_values", "memory_bill", "state_nbytes",
]
