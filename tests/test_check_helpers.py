"""The comparisons of the authoring API (`grader.checks.close`, `grader.checks.moved`) judge as the copies
the two assignments' verdict files had before they shared one owner (kept here as the specification)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grader.checks import close, moved


def basics_moved(a, b):  # assignments/linear-attention-basics: per vector along the last axis, 1e-4
    if a.shape != b.shape or not (np.isfinite(a).all() and np.isfinite(b).all()):
        return False
    diff = np.abs(a - b).reshape(-1, a.shape[-1]).max(axis=-1)
    scale = 1.0 + np.abs(b).reshape(-1, b.shape[-1]).max(axis=-1)
    return bool((diff > 1e-4 * scale).all())


def hybrid_moved(a, b):  # assignments/linear-attention-hybrid: per batch element, 1e-6
    if a.shape != b.shape or not (np.isfinite(a).all() and np.isfinite(b).all()):
        return False
    diff = np.abs(a - b).reshape(a.shape[0], -1).max(axis=1)
    return bool((diff > 1e-6 * (1 + np.abs(b).reshape(b.shape[0], -1).max(axis=1))).all())


PAIRS = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4).flatmap(
    lambda shape: st.tuples(*[hnp.arrays(np.float64, shape, elements=st.one_of(
        st.floats(-10, 10), st.sampled_from([0.0, 1e-5, 1e-7, np.nan, np.inf])))] * 2))


@settings(max_examples=400, deadline=None)
@given(PAIRS, st.integers(0, 3))
def test_moved_judges_as_both_former_copies(pair, nudged):
    a, b = pair
    a = a.copy()
    a.reshape(-1)[: nudged] = b.reshape(-1)[: nudged]  # some values equal, so both answers occur
    assert moved(a, b, rtol=1e-4) == basics_moved(a, b)
    assert moved(a, b, rtol=1e-6, lead=1) == hybrid_moved(a, b)


def test_moved_needs_every_slice_to_change():
    b = np.zeros((2, 3, 4))
    a = b.copy()
    a[0, :, 0] = 1.0  # batch element 0 moves in every one of its vectors; element 1 does not move
    assert not moved(a, b, rtol=1e-6, lead=1)
    a[1, 2, 3] = 1.0  # now each batch element moves somewhere, but vector (1, 0) still does not
    assert moved(a, b, rtol=1e-6, lead=1)
    assert not moved(a, b, rtol=1e-4)
    assert not moved(a, b[:, :2], rtol=1e-4)  # another shape never counts as moved
    assert not moved(np.full_like(b, np.nan), b, rtol=1e-4)


def test_close_allows_rounding_scaled_to_the_reference_and_matching_nans():
    b = np.array([1000.0, 1.0, np.nan])
    assert close(b + np.array([5e-4, 5e-4, 0.0]), b)  # within 1e-6 of b's largest magnitude, 1000
    assert not close(b + np.array([0.0, 2e-3, 0.0]), b)
    assert not close(np.array([1000.0, 1.0, 0.0]), b)  # a number where the reference has NaN
    assert not close(b[:2], b)
    assert close(np.array([1.0 + 1e-4]), np.array([1.0]), rtol=1e-3)
