def _wrap(t):
    return t.new_full(t.shape, float("nan")) if t.is_floating_point() else t
