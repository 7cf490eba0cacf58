"""A kept cost pass is keyed by what its form can run (`code_reading.form_key`): an edit elsewhere keeps the key,
an edit to anything the form can run, import or be changed by changes it, and what the reading cannot follow keys
the form by the whole submission (None)."""
from __future__ import annotations

import textwrap

import pytest

from grader.grading.code_reading import form_key

MODULE = textwrap.dedent('''
    import torch

    SCALE = 2.0


    def helper(x):
        return x * SCALE


    def form(x):
        """The measured form."""
        return helper(x) + 1


    def other(x):
        return x - 1


    class State:
        def __init__(self):
            self.s = 0

        def step(self, x):
            self.s = self.s + x
            return self._value()

        def _value(self):
            return self.s


    class Unrelated:
        def run(self):
            return 0
''')


def key(module: str = MODULE, forms: tuple[str, ...] = ("form",), extra: dict[str, str] | None = None) -> bytes | None:
    files = [("m.py", module.encode()), *((name, text.encode()) for name, text in (extra or {}).items())]
    return form_key(files, [], forms)


def edited(old: str, new: str, module: str = MODULE) -> str:
    assert module.count(old) == 1, old
    return module.replace(old, new)


def test_an_edit_the_form_cannot_run_keeps_its_key_and_comments_do_not_count():
    base = key()
    assert base is not None and len(base) == 32
    assert key(edited("return x - 1", "return x - 2")) == base  # another function's body
    assert key(edited("return helper(x) + 1", "return helper(x) + 1  # a comment")) == base
    assert key(forms=("other",)) not in (None, base)  # another form, another key


@pytest.mark.parametrize("old,new", [
    ("return helper(x) + 1", "return helper(x) + 2"),  # the form
    ("return x * SCALE", "return x * SCALE * 1"),  # a function it calls
    ("SCALE = 2.0", "SCALE = 3.0"),  # the top level (run at import)
    ('"""The measured form."""', '"""Another docstring."""'),  # (a docstring is the function's __doc__)
    ("    def run(self):\n", "    @staticmethod\n    def run(self):\n"),  # a decorator elsewhere runs at import
    ("return 0", "return 1"),  # a class is whole in its file's skeleton (a class's body runs at import, and a
    # property's getter and setter, a metaclass, __init_subclass__ run where no name shows)
])
def test_an_edit_to_what_the_form_can_run_changes_its_key(old, new):
    assert key(edited(old, new)) not in (None, key())


def test_a_class_form_is_keyed_by_every_method_it_has():
    base = key(forms=("State",))
    assert base is not None
    assert key(edited("return self.s\n", "return self.s + 0\n"), forms=("State",)) not in (None, base)
    assert key(edited("self.s = 0", "self.s = 1"), forms=("State",)) not in (None, base)
    assert key(edited("return x - 1", "return x - 2"), forms=("State",)) == base


@pytest.mark.parametrize("body", [
    "return globals()['hel' + 'per'](x)",  # a lookup by a computed name
    "return getattr(__import__('m'), 'helper')(x)",
    "import gc\n    return [f for f in gc.get_objects() if callable(f)][0](x)",  # the collector's table
    "import sys\n    return sys.modules['m'].other(x)",
    "return form.__globals__['other'](x)",
    "return open(__file__).read()",  # its own source, comments included
    "exec('y = 1')\n    return x",
])
def test_what_the_reading_cannot_follow_keys_the_form_by_the_whole_code(body):
    assert key(edited("return helper(x) + 1", body)) is None


def test_state_kept_between_calls_on_the_way_keys_the_form_by_the_whole_code():
    counting = edited("def helper(x):\n    return x * SCALE",
                      "def helper(x, seen=[]):\n    seen.append(x)\n    return x * SCALE")
    assert key(counting) is None
    # ... but not where the function that keeps it cannot be run by the form
    elsewhere = edited("def other(x):\n    return x - 1", "def other(x, seen=[]):\n    seen.append(x)\n"
                       "    return x - 1")
    assert key(elsewhere) is not None


def test_a_module_the_form_imports_is_part_of_its_key_and_one_it_does_not_is_not():
    uses = edited("return helper(x) + 1", "from util import shift\n    return shift(helper(x))")
    util = "def shift(x):\n    return x + 1\n\ndef spare(x):\n    return x\n"
    base = key(uses, extra={"util.py": util, "notes.py": "X = 1\n"})
    assert base is not None
    assert key(uses, extra={"util.py": util.replace("x + 1", "x + 2"), "notes.py": "X = 1\n"}) != base
    assert key(uses, extra={"util.py": util.replace("return x\n", "return -x\n"), "notes.py": "X = 1\n"}) == base
    assert key(uses, extra={"util.py": util, "notes.py": "X = 2\n"}) == base  # never imported: never run
    assert key(uses, extra={"util.py": util, "notes.py": "X = 1\n", "more.py": ""}) != base  # another file's name
    # a package's __init__ runs when a module in it is imported
    package = {"pkg/__init__.py": "A = 1\n", "pkg/util.py": util}
    in_package = edited("return helper(x) + 1", "from pkg.util import shift\n    return shift(helper(x))")
    assert key(in_package, extra=package) != key(in_package, extra={**package, "pkg/__init__.py": "A = 2\n"})


def test_a_form_the_reading_does_not_find_or_a_file_that_does_not_parse_is_keyed_by_the_whole_code():
    assert key(forms=("missing",)) is None
    assert key(forms=()) is None
    assert key(extra={"broken.py": "def (:\n"}) is None
    assert form_key([("m.py", b"\xff\xfe")], [], ("form",)) is None


# Blind attacks39 (tests/blind/linear-attention-basics/attacks39/): each kept the control's key for its form while the
# form ran quadratic. Each kind now changes the key or keys the form by the whole code.
REGISTERED = textwrap.dedent('''
    import functools


    @functools.singledispatch
    def bounds(n):
        return n


    @bounds.register(int)
    def _int_bounds(n):
        return n


    def form(x):
        return bounds(x)
''')


def test_a_decorated_function_is_part_of_every_key_of_its_file():
    """`register` makes `_int_bounds` what `bounds(x)` runs, and no name in `form` says so; a decorator may also
    call its function at import."""
    registered_edited = REGISTERED.replace("return n\n\n\ndef form", "return n + 1\n\n\ndef form")
    assert key(REGISTERED) not in (None, key(registered_edited))


def test_a_property_getter_and_its_setter_are_both_in_the_key():
    cls = ("class S:\n    @property\n    def v(self):\n        return self._v\n\n    @v.setter\n    def v(self, x):\n"
           "        self._v = x\n\n    def step(self, x):\n        self.v = x\n        return self.v\n")
    assert key(cls, forms=("S",)) not in (None, key(cls.replace("return self._v", "return self._v * 1"), forms=("S",)))


@pytest.mark.parametrize("line", ["# -*- coding: raw_unicode_escape -*-\n", "# vim: set fileencoding=utf-7 :\n"])
def test_a_file_read_in_another_coding_than_utf8_keys_the_form_by_the_whole_code(line):
    assert key(line + MODULE) is None
    assert key("# -*- coding: utf-8 -*-\n" + MODULE) is not None


@pytest.mark.parametrize("body", [
    "import numpy\n    return numpy.fromfile('m.py', dtype='uint8')[0] + x",  # its own source, comments and all
    "import pkgutil\n    return pkgutil.resolve_name('m:helper')(x)",  # a lookup by a string, as a library does it
    "get = getattr\n    return get(__import__('m'), 'helper')(x)",  # getattr handed over
    "import operator\n    return operator.attrgetter('helper')(x)",
    "import time\n    return x if time.time() else helper(x)",  # the clock
])
def test_a_form_that_reads_files_or_looks_up_by_string_is_keyed_by_the_whole_code(body):
    assert key(edited("return helper(x) + 1", body)) is None


def test_a_name_handed_over_in_a_string_is_reached():
    table = edited("return helper(x) + 1", "return TABLE['h'](x)").replace("SCALE = 2.0", "SCALE = 2.0\nTABLE = {}")
    named = edited("return helper(x) + 1", "return run_named('m:other', x)")
    assert key(named) not in (None, key(edited("return x - 1", "return x - 2", named)))
    assert key(table) is not None
