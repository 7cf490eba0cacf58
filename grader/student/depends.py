"""What an edit can affect, read from the source: the definitions of the folder's Python files, which of them each
notebook cell and each public test uses, and which earlier cells each cell needs.

`grade --local` keys every notebook cell and every public test by what it can depend on (`cell_keys`,
`test_keys`), so that after a one-function edit only the cells and tests that use that function run again, with
the earlier cells they need to rebuild their variables. The reading is static and errs one way: what it cannot
follow counts as depending on everything (a cell that calls `eval`, a module that uses `globals()`, a source that
does not parse), so a result is reused only where nothing it could use changed.

* A **unit** is a top-level function or class of a Python file, or the rest of that file (imports, constants:
  its ``<top>``, which every user of the file depends on). Its fingerprint is its syntax tree without comments,
  formatting or docstrings; it refers to every identifier it mentions (names and attribute names), and so to
  every unit of that name, in any file, transitively.
* A **cell** depends on the units it mentions and on the earlier cells it needs: those that bind or may change a
  name it reads (an assignment, an import, a `def`, a call that is handed the name or called on it), the cells
  that configure the kernel (magics, `torch.set_…`), and, when it may draw random numbers without seeding first,
  every earlier cell back to the last one that seeds (the random stream it draws from passed through them). A
  cell's key is its source with its units' fingerprints and the keys of the cells it needs, so a change flows to
  every later cell that uses what changed.
"""
from __future__ import annotations

import ast
import hashlib
import re
import symtable
from dataclasses import dataclass, field
from pathlib import Path

READING = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]  # this reading: part of every key
ALL = "\0all"  # "mentions every name": what a dynamic lookup may reach
IO = "\0io"  # a file read or written: cells that do either depend on each other
DYNAMIC_NAMES = {"eval", "exec", "compile", "__import__", "reload", "importlib", "get_ipython", "__builtins__",
                 "builtins", "inspect"}  # what reaches names this reading cannot see
DYNAMIC_ATTRIBUTES = {"modules", "__dict__", "__globals__", "f_globals", "f_locals"}  # sys.modules, module.__dict__
ATTRIBUTE_CALLS = {"getattr", "setattr", "delattr", "hasattr"}  # by a name: a string is a mention, an f-string's
# leading text names every unit it starts (getattr(la, f"retention_{form}")), anything else reaches every name
LOOKUP_CALLS = {"globals", "locals", "vars"}  # read names by string: the cell's string constants are its reads
PREFIX = "\0prefix:"
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add",
            "discard", "sort", "reverse"}  # a container changed in place (and torch's in-place methods: add_ ...)
EXISTS = "\0exists:"
SEEDS = {"manual_seed", "seed", "set_rng_state", "set_state"}
IO_CALLS = {"open", "save", "savez", "savetxt", "savefig", "load", "loadtxt", "to_csv", "read_csv", "read_text",
            "write_text", "read_bytes", "write_bytes", "remove", "unlink", "rename", "replace", "mkdir", "rmtree",
            "copy", "copyfile", "dump", "dumps"}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()


def _without_docstring(node: ast.AST) -> ast.AST:
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
            and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
        node.body = body[1:] or [ast.Pass()]
    for child in ast.walk(node):
        if child is not node and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _without_docstring(child)
    return node


def _dynamic(child: ast.AST) -> str:
    """ALL where ``child`` reaches names this reading cannot follow, a prefix reference for getattr with an
    f-string, "" otherwise."""
    if isinstance(child, ast.Name) and child.id in DYNAMIC_NAMES:
        return ALL
    if isinstance(child, ast.Attribute) and child.attr in DYNAMIC_ATTRIBUTES:
        return ALL
    if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in ATTRIBUTE_CALLS:
        name = child.args[1] if len(child.args) > 1 else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            return ""
        if isinstance(name, ast.JoinedStr) and name.values and isinstance(name.values[0], ast.Constant) \
                and isinstance(name.values[0].value, str) and name.values[0].value:
            return PREFIX + name.values[0].value
        return ALL
    return ""


def _mentions(node: ast.AST) -> set[str]:
    """Every identifier ``node`` mentions: names, attribute names, arguments (a pytest fixture is asked for by
    its argument's name), imported names; ALL where it reaches names in a way this reading cannot follow."""
    found: set[str] = set()
    for child in ast.walk(node):
        dynamic = _dynamic(child)
        if dynamic:
            found.add(dynamic)
        if isinstance(child, ast.Name):
            found.add(child.id)
            if child.id in LOOKUP_CALLS:
                found.add(ALL)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
        elif isinstance(child, ast.arg):
            found.add(child.arg)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(child.name)
        elif isinstance(child, ast.alias) and child.name == "*":
            found.add(ALL)  # (an imported name is not a use of it: its uses are the names that call it)
        elif isinstance(child, (ast.Global, ast.Nonlocal)):
            found.add(ALL)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str) and IDENT.match(child.value):
            found.add(child.value)  # a fixture or attribute named in a string (getfixturevalue, hasattr)
    return found


@dataclass(frozen=True)
class Unit:
    key: str  # "path::name" or "path::<top>"
    name: str
    fingerprint: str
    refs: frozenset[str]


@dataclass
class Sources:
    """The units of a folder's Python files."""

    units: dict[str, Unit] = field(default_factory=dict)
    by_name: dict[str, list[str]] = field(default_factory=dict)
    tops: dict[str, str] = field(default_factory=dict)  # path -> its <top> unit's key
    unreadable: list[str] = field(default_factory=list)  # files that do not parse: everything depends on them

    def add_file(self, rel: str, text: str) -> ast.Module | None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.unreadable.append(_digest(rel, text))
            return None
        rest = []
        assigned, defined = _top_names(tree)
        # one function that changes what the module keeps between calls: every unit of the file reaches everything
        shared = {ALL} if any(_changes_shared_state(node, assigned, defined) for node in tree.body
                              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))) else set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and not _autouse(node):
                self._add(Unit(f"{rel}::{node.name}", node.name, _digest(ast.dump(_without_docstring(node))),
                               frozenset(_mentions(node) | shared)))
            else:
                rest.append(node)
        top = ast.Module(body=rest, type_ignores=[])
        self._add(Unit(f"{rel}::<top>", "", _digest(rel, ast.dump(_without_docstring(top))),
                       frozenset(_mentions(top))))
        self.tops[rel] = f"{rel}::<top>"
        return tree

    def _add(self, unit: Unit) -> None:
        self.units[unit.key] = unit
        if unit.name:
            self.by_name.setdefault(unit.name, []).append(unit.key)

    def _named(self, name: str) -> list[str]:
        if name.startswith(PREFIX):
            return [k for n, keys in self.by_name.items() if n.startswith(name[len(PREFIX):]) for k in keys]
        return self.by_name.get(name, [])

    def closure(self, names: set[str], tops: bool = True) -> list[str]:
        """The units reached from ``names`` (every unit where ALL is among them), with every file's <top>."""
        if ALL in names:
            return sorted(self.units)
        seen: set[str] = set(self.tops.values()) if tops else set()
        todo = [k for n in names for k in self._named(n)]
        todo += [r for t in seen for n in self.units[t].refs for r in self._named(n)]
        if any(ALL in self.units[t].refs for t in seen):
            return sorted(self.units)
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            refs = self.units[key].refs
            if ALL in refs:
                return sorted(self.units)
            todo.extend(k for n in refs for k in self._named(n))
        return sorted(seen)

    def fingerprint(self, names: set[str]) -> str:
        """What the units reached from ``names`` are; an EXISTS name only says whether there is such a unit."""
        there = sorted(f"{n}={bool(self._named(n[len(EXISTS):]))}" for n in names if n.startswith(EXISTS))
        keys = self.closure({n for n in names if not n.startswith(EXISTS)})
        return _digest(*sorted(self.unreadable), *there, *(f"{k}={self.units[k].fingerprint}" for k in keys))


def _top_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names a file's top level assigns, names it defines with def or class)."""
    assigned, defined = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return assigned, defined


def _changes_shared_state(node: ast.AST, assigned: set[str], defined: set[str]) -> bool:
    """Whether a function or class may change state its module keeps between calls, or the world outside it:
    a cache dict filled, a mutable default argument, a class attribute counted (through the class, `type(self)`
    or `__class__`), a function's attribute, a cached decorator, a file written. Then what one cell ran changes
    what another gets, which names alone do not show, and the file's units count as reaching everything. A name
    the function binds itself is its own."""
    own = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    own |= {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}
    for child in ast.walk(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            defaults = [*child.args.defaults, *(d for d in child.args.kw_defaults if d)]
            if any(isinstance(d, (ast.List, ast.Dict, ast.Set, ast.Call)) for d in defaults):
                return True  # one object for every call
            if any("cache" in ast.dump(d).lower() for d in getattr(child, "decorator_list", ())):
                return True
        if isinstance(child, (ast.Subscript, ast.Attribute)) and isinstance(child.ctx, (ast.Store, ast.Del)):
            root = _root(child)
            if (root not in own and root in assigned | defined) or _through_the_class(child):
                return True
        elif isinstance(child, ast.Call) and _call_name(child) in IO_CALLS:
            return True
        elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) \
                and (child.func.attr in MUTATORS or child.func.attr.endswith("_")):
            root = _root(child.func)
            if (root not in own and root in assigned) or _through_the_class(child.func):
                return True
    return False


def _through_the_class(node: ast.AST) -> bool:
    """x.__class__.a, type(x).a: an attribute of a class, reached from an instance."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute) and node.attr == "__class__":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type":
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _autouse(node: ast.AST) -> bool:
    """A fixture every test gets without asking for it: part of its file's <top>."""
    return any("autouse" in ast.dump(d) for d in getattr(node, "decorator_list", ()))


def read_sources(files: dict[str, str]) -> Sources:
    """``files``: relative path -> text of every Python file of the folder."""
    sources = Sources()
    for rel in sorted(files):
        sources.add_file(rel, files[rel])
    return sources


# ----------------------------------------------------------------------------- public tests

@dataclass(frozen=True)
class TestUnit:
    node: str  # the pytest node id: "tests/test_x.py::test_name" or "...::TestClass"
    names: tuple[str, ...]  # the test names its JUnit records carry (a class: its test methods)
    key: str


def test_units(sources: Sources, test_files: dict[str, str], common: str) -> list[TestUnit] | None:
    """One unit per top-level test function or test class of the public test files, keyed by what it can use
    (``common``: what every test depends on, the versions and the folder's other files). None: a test file that
    does not parse (all of them run)."""
    out = []
    for rel in sorted(test_files):
        try:
            tree = ast.parse(test_files[rel])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                names = (node.name,)
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                names = tuple(n.name for n in node.body
                              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"))
            else:
                continue
            out.append(TestUnit(f"{rel}::{node.name}", names, _digest(common, sources.fingerprint({node.name}))))
    return out


# ----------------------------------------------------------------------------- notebook cells

IPY_LINE = re.compile(r"^\s*[%!]|^\s*\S.*\?\s*$")
# magics that run code, load or drop names, or write files: the cell may read and change anything
IPY_ANYTHING = re.compile(r"^\s*(!|%%?(run|load|store|writefile|reset|xdel|autoreload|aimport|macro|recall|rerun|"
                          r"bash|sh|script|system|sx|capture|time|timeit|prun|debug|env|cd|pushd|popd|bookmark))")


@dataclass(frozen=True)
class CellUse:
    reads: frozenset[str]
    changes: frozenset[str]  # names it binds or may change
    config: bool  # configures the kernel or a library for every later cell (magics, torch.set_..., seeds)
    draws: bool  # may draw random numbers from a global stream before seeding it
    seeds: bool  # seeds a global random stream
    everything: bool  # reads and may change every name (eval, exec): needs every earlier cell
    imports: frozenset[tuple[str, str]] = frozenset()  # (name bound, what it imports)
    names: frozenset[str] = frozenset()  # every name it uses, its own included: the units it may run


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call, ast.Starred)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _cell_code(source: str) -> str:
    """A code cell's Python: IPython magics and shell lines left out (blank lines keep the line numbers)."""
    return "\n".join("" if IPY_LINE.match(line) else line for line in source.splitlines())


def _parse_cell(source: str) -> tuple[ast.Module | None, bool]:
    """A code cell's syntax tree and whether it had magics or shell lines."""
    magic = any(IPY_LINE.match(line) for line in source.splitlines())
    try:
        return ast.parse(_cell_code(source)), magic
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, magic


def module_names(trees: list[ast.Module | None]) -> frozenset[str]:
    """The names the cells bind to modules (`import torch`, `import matplotlib.pyplot as plt`): a call on a
    module (torch.randn) does not change the module, except its settings (torch.set_..., a seed)."""
    found = set()
    for tree in trees:
        for child in ast.walk(tree) if tree is not None else ():
            if isinstance(child, ast.Import):
                found.update((a.asname or a.name).split(".")[0] for a in child.names)
    return frozenset(found)


def _bound_before(tree: ast.Module) -> dict[str, int]:
    """name -> the index of the first top-level statement that binds it (a read in a later statement is the
    cell's own variable, not an earlier cell's)."""
    first: dict[str, int] = {}
    for n, stmt in enumerate(tree.body):
        for child in _same_scope(stmt):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                first.setdefault(child.id, n)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first.setdefault(child.name, n)
            elif isinstance(child, ast.alias) and child.name != "*":
                first.setdefault((child.asname or child.name).split(".")[0], n)
    return first


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp)


def _same_scope(node: ast.AST):
    """``node`` and what it holds in its own scope: a function's, lambda's, class's or comprehension's body is
    another scope (its decorators and defaults are not)."""
    todo = [node]
    while todo:
        child = todo.pop()
        yield child
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend([*child.decorator_list, *child.args.defaults, *(d for d in child.args.kw_defaults if d)])
        elif isinstance(child, ast.ClassDef):
            todo.extend([*child.decorator_list, *child.bases, *(k.value for k in child.keywords)])
        elif isinstance(child, ast.Lambda):
            todo.extend([*child.args.defaults, *(d for d in child.args.kw_defaults if d)])
        elif isinstance(child, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            todo.append(child.generators[0].iter)  # evaluated in the enclosing scope
        else:
            todo.extend(ast.iter_child_nodes(child))


def _inner_reads(code: str, tree: ast.Module) -> dict[str, int] | None:
    """Names the cell's functions, classes and comprehensions read from the notebook's globals -> the index of
    the top-level statement that holds them (symtable's scoping: parameters and locals are not reads). None
    where symtable cannot read the code."""
    try:
        top = symtable.symtable(code, "<cell>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    spans = [(stmt.lineno, stmt.end_lineno or stmt.lineno) for stmt in tree.body]
    found: dict[str, int] = {}
    todo = list(top.get_children())
    while todo:
        table = todo.pop()
        todo.extend(table.get_children())
        line = table.get_lineno()
        n = next((i for i, (a, b) in enumerate(spans) if a <= line <= b), 0)
        for sym in table.get_symbols():
            if sym.is_referenced() and (sym.is_global() or sym.is_declared_global()):
                found[sym.get_name()] = min(found.get(sym.get_name(), n), n)
            if sym.is_declared_global() and sym.is_assigned():
                found["\0writes-globals"] = 0
    return found


def _import_effects(node: ast.Import | ast.ImportFrom, reads: set[str], imports: set[tuple[str, str]]) -> bool:
    """What an import reads and binds (added to ``reads`` and ``imports``); True for `from m import *`."""
    source_of = getattr(node, "module", None) or ""
    star = False
    for alias in node.names:
        if alias.name == "*":
            star = True
            continue
        # importing a function needs it to be there, not its body (the cells that call it use that)
        reads.add(EXISTS + alias.name.split(".")[0])
        imports.add(((alias.asname or alias.name).split(".")[0], f"{source_of}:{alias.name}"))
    return star


def _call_effects(call: ast.Call, tree: ast.Module, modules: frozenset[str], reads: set[str],
                  changes: set[str]) -> tuple[bool, bool]:
    """What one call of a cell reads and may change (added to ``reads`` and ``changes``); (seeds, configures)."""
    name = _call_name(call)
    if name in LOOKUP_CALLS:  # globals()["x"], "x" in globals(): the names are strings
        reads.update(c.value for c in ast.walk(tree) if isinstance(c, ast.Constant)
                     and isinstance(c.value, str) and IDENT.match(c.value))
    if name in IO_CALLS:
        reads.add(IO)
        changes.add(IO)
    # a call may change what it is called on and what it is handed (not a module it is called on)
    root = _root(call.func) if isinstance(call.func, ast.Attribute) else ""
    if root and root not in modules:
        changes.add(root)
    for arg in (*call.args, *(k.value for k in call.keywords)):
        arg = arg.value if isinstance(arg, ast.Starred) else arg
        if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript)) and _root(arg):
            changes.add(_root(arg))
    # torch.set_default_dtype, np.set_printoptions, plt.style.use configure every later cell
    return name in SEEDS, _root(call.func) in modules and name not in SEEDS and name.startswith(("set_", "use"))


def cell_use(source: str, modules: frozenset[str] = frozenset()) -> CellUse:
    """What one code cell reads and changes (IPython magics and shell lines make it a configuring cell)."""
    tree, magic = _parse_cell(source)
    if tree is None or any(IPY_ANYTHING.match(line) for line in source.splitlines()):
        return CellUse(frozenset({ALL}), frozenset({ALL}), True, True, False, True, names=frozenset({ALL}))
    bound = _bound_before(tree)
    inner = _inner_reads(_cell_code(source), tree)
    if inner is None or "\0writes-globals" in inner or any(isinstance(c, (ast.Global, ast.Nonlocal))
                                                            for c in ast.walk(tree)):
        return CellUse(frozenset({ALL}), frozenset({ALL}), True, True, False, True, names=frozenset({ALL}))
    reads = {name for name, n in inner.items() if bound.get(name, n) >= n}
    scoped = [{c for c in _same_scope(stmt) if isinstance(c, ast.Name)} for stmt in tree.body]
    changes, imports = set(), set()
    draws = seeds = config = everything = patched = False
    for n, stmt in enumerate(tree.body):
        for child in ast.walk(stmt):
            dynamic = _dynamic(child)
            if dynamic == ALL:
                everything = True
            elif dynamic:
                reads.add(dynamic)  # (the units it may reach; a cell's variables are named, not prefixed)
            if isinstance(child, ast.Name) and child not in scoped[n]:
                continue  # a function's own name: symtable read it (above)
            if isinstance(child, ast.Name):
                if isinstance(child.ctx, (ast.Store, ast.Del)):
                    changes.add(child.id)
                elif bound.get(child.id, n) >= n:  # read before the cell binds it itself
                    reads.add(child.id)
            elif isinstance(child, ast.Attribute):
                reads.add(child.attr)
                if isinstance(child.ctx, (ast.Store, ast.Del)) and _root(child):
                    changes.add(_root(child))  # x.a = ...: x changed
                    patched = patched or _root(child) in modules  # la.f = ..., a module patched: every later cell
            elif isinstance(child, ast.Subscript) and isinstance(child.ctx, (ast.Store, ast.Del)) and _root(child):
                changes.add(_root(child))
                patched = patched or _root(child) in modules  # os.environ["X"] = ...
            elif isinstance(child, ast.AugAssign) and _root(child.target):
                reads.add(_root(child.target))
                changes.add(_root(child.target))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                changes.add(child.name)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                everything = _import_effects(child, reads, imports) or everything
            elif isinstance(child, ast.Call):
                seeds_here, config_here = _call_effects(child, tree, modules, reads, changes)
                seeds, config = seeds or seeds_here, config or config_here
                draws = True  # any call may draw from a global random stream (a module's init, torch.randn)
    if everything:
        reads.add(ALL)
        changes.add(ALL)
    # the units it may run: every name it uses, even one it bound itself (`from mod import f` then `f(x)`)
    names = reads | set(inner) | {c.id for c in ast.walk(tree) if isinstance(c, ast.Name)}
    names |= {source.rsplit(":", 1)[1].split(".")[0] for bound_name, source in imports if bound_name in names}
    # a value changed in place that the cell did not make may be another name's too (Q2 = Q, a view of Q)
    if _changes_in_place(tree, bound):
        changes.add(ALL)
    return CellUse(frozenset(reads), frozenset(changes), magic or config or patched,
                   draws and not _seeded_first(tree), seeds,
                   everything, frozenset(imports), frozenset(names))


def _changes_in_place(tree: ast.Module, bound: dict[str, int]) -> bool:
    """Whether a cell changes, in place, a value bound before it (x[0] = ..., x.add_(...), xs.append(...), x += ...
    on a tensor): values may be shared between names, so every later cell may see the change."""
    for n, stmt in enumerate(tree.body):
        for child in ast.walk(stmt):
            target = None
            if isinstance(child, (ast.Subscript, ast.Attribute)) and isinstance(child.ctx, (ast.Store, ast.Del)):
                target = child
            elif isinstance(child, ast.AugAssign):
                target = child.target  # x += y changes a tensor in place, x[0] += y too
            elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) \
                    and (child.func.attr in MUTATORS or child.func.attr.endswith("_")):
                target = child.func
            root = _root(target) if target is not None else ""
            if root and bound.get(root, n + 1) > n:  # not the cell's own (bound in an earlier statement)
                return True
    return False


def _seeded_first(tree: ast.Module) -> bool:
    """Whether the cell's first statement that calls anything seeds a random stream (what it draws after is its
    own, whatever the cells before it drew)."""
    first = next((s for s in tree.body if any(isinstance(c, ast.Call) for c in ast.walk(s))), None)
    return first is not None and any(isinstance(c, ast.Call) and _call_name(c) in SEEDS for c in ast.walk(first))


def cell_needs(uses: list[CellUse]) -> list[list[int]]:
    """For each cell (in notebook order), the earlier cells it needs run before it, directly. An import binds
    a name only the first time (importing torch again binds the same module)."""
    changes, seen = [], set()
    for use in uses:
        fresh = {name for name, source in use.imports if (name, source) not in seen}
        seen.update(use.imports)
        changes.append(use.changes | fresh)
    needs: list[list[int]] = []
    for i, use in enumerate(uses):
        direct = []
        last_seed = max((j for j in range(i) if uses[j].seeds), default=-1)
        for j in range(i):
            earlier = uses[j]
            if (use.everything or earlier.config or ALL in changes[j] or use.reads & changes[j]
                    or (use.draws and j >= last_seed and (earlier.draws or earlier.seeds))):
                direct.append(j)
        needs.append(direct)
    return needs


def cell_keys(sources: Sources, cells: list[str], common: str) -> tuple[list[str], list[list[int]]]:
    """Each code cell's key (its source, the units it uses, the keys of the cells it needs) and its needs.
    ``cells``: the code cells' identities (id, tags, source), in order."""
    modules = module_names([_parse_cell(_source_of(c))[0] for c in cells])
    uses = [cell_use(_source_of(c), modules) for c in cells]
    needs = cell_needs(uses)
    keys: list[str] = []
    for i, cell in enumerate(cells):
        units = sources.fingerprint(set(uses[i].names) | ({ALL} if uses[i].everything else set()))
        keys.append(_digest(common, cell, units, *(keys[j] for j in needs[i])))
    return keys, needs


def _source_of(identity: str) -> str:
    return identity.split("\0", 2)[2] if identity.count("\0") >= 2 else identity


def run_set(stale: set[int], needs: list[list[int]]) -> set[int]:
    """The cells to run: the stale ones and, transitively, the earlier cells they need."""
    todo, out = list(stale), set()
    while todo:
        i = todo.pop()
        if i in out:
            continue
        out.add(i)
        todo.extend(needs[i])
    return out


def python_files(folder: Path, files: list[Path]) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8", errors="replace")
            for p in files if p.suffix == ".py"}
