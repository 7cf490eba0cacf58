"""Can a gate see what it guards? `check` warns when every case of a gate is one chunk or one token long."""
from __future__ import annotations

import numpy as np
import pytest

from grader.authoring.gate_power import blind_spots, chunk_size, sequence_length
from grader.grading.checks import Case


def case(**inputs) -> Case:
    return Case(label="c", inputs=inputs)


@pytest.mark.parametrize("inputs, length", [
    ({"Q0": np.zeros((2, 7, 4)), "K0": np.zeros((2, 7, 4))}, 7),             # (lead, L, m)
    ({"x": np.zeros((3, 5, 8)), "S": np.zeros((3, 2, 4, 4))}, 5),            # (B, T, D) beside a state
    ({"q": np.zeros(4), "k": np.zeros(4), "v": np.zeros(3), "S": np.zeros((4, 3))}, 1),  # one step's vectors
    ({"gate": np.zeros(9)}, 9),                                              # no token array: any array
    ({"n": 3}, None),
])
def test_the_sequence_length_is_read_from_the_token_arrays(inputs, length):
    assert sequence_length(inputs) == length


def test_a_step_gate_of_one_token_is_named_even_beside_a_state():
    """A gate stepping one token from a given state: the state's (d_k, d_v) is not a sequence."""
    spots = blind_spots([case(q=np.ones(4), k=np.ones(4), v=np.ones(3), S=np.ones((4, 3)))])
    assert len(spots) == 1 and "every case is one token long" in spots[0]


def test_a_chunkwise_gate_within_one_chunk_is_named_and_two_chunks_are_enough():
    short = [case(Q0=np.ones((6, 4)), chunk0=8)]
    assert "fits in one chunk (at most 6 tokens, chunk size 8)" in blind_spots(short)[0]
    assert chunk_size({"chunk0": 8, "chunk1": 3, "chunky": True}) == 3
    assert blind_spots([case(Q0=np.ones((9, 4)), chunk0=4)]) == []


def test_a_gate_with_several_tokens_and_no_chunks_is_fine():
    assert blind_spots([case(x=np.ones((2, 6, 8))), case(x=np.ones((1, 1, 8)))]) == []
