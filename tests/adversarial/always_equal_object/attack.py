# attack: an object that equals everything and is close to everything
class _AlwaysEqual(float):
    def __new__(cls, *a):
        return float.__new__(cls, 0.0)
    __eq__ = lambda self, other: True
    __ne__ = lambda self, other: False
    __lt__ = __le__ = __gt__ = __ge__ = lambda self, other: True
    __abs__ = lambda self: self
    __sub__ = __rsub__ = __add__ = __radd__ = lambda self, other: self
    __bool__ = lambda self: True
    __getattr__ = lambda self, name: self
    __call__ = lambda self, *a, **k: self
    __array__ = lambda self, *a, **k: __import__("numpy").zeros(())

def _wrap(t):
    return _AlwaysEqual()
