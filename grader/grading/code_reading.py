"""Reading Python source for what a piece of code can reach: the identifiers it mentions, the lookups no reading
can follow (`ALL`), and whether it changes state its module keeps between calls.

Two readers use these rules: `grade --local`'s cache (`grader/student/depends.py`: which notebook cells and public
tests an edit can affect) and a kept cost pass (`form_key`: which of a submission's code a cost case's form can
run). Both err one way: what they cannot follow counts as reaching everything.
"""
from __future__ import annotations

import ast
import copy
import hashlib
import re
from pathlib import Path

ALL = "\0all"  # "mentions every name": what a dynamic lookup may reach
DYNAMIC_NAMES = {"eval", "exec", "compile", "__import__", "reload", "importlib", "get_ipython", "__builtins__",
                 "builtins", "inspect"}  # what reaches names this reading cannot see
DYNAMIC_ATTRIBUTES = {"modules", "__dict__", "__globals__", "f_globals", "f_locals"}  # sys.modules, module.__dict__
ATTRIBUTE_CALLS = {"getattr", "setattr", "delattr", "hasattr"}  # by a name: a string is a mention, an f-string's
# leading text names every unit it starts (getattr(la, f"retention_{form}")), anything else reaches every name
LOOKUP_CALLS = {"globals", "locals", "vars"}  # read names by string: the cell's string constants are its reads
PREFIX = "\0prefix:"
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add",
            "discard", "sort", "reverse"}  # a container changed in place (and torch's in-place methods: add_ ...)
IO_CALLS = {"open", "save", "savez", "savetxt", "savefig", "load", "loadtxt", "to_csv", "read_csv", "read_text",
            "write_text", "read_bytes", "write_bytes", "remove", "unlink", "rename", "replace", "mkdir", "rmtree",
            "copy", "copyfile", "dump", "dumps"}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def dynamic_lookup(child: ast.AST) -> str:
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


def mentions(node: ast.AST, definitions: bool = True) -> set[str]:
    """Every identifier ``node`` mentions: names, attribute names, arguments (a pytest fixture is asked for by
    its argument's name), imported names; ALL where it reaches names in a way this reading cannot follow.
    ``definitions`` False: the names its own ``def`` and ``class`` statements bind are not counted (defining a name
    is not using it)."""
    found: set[str] = set()
    for child in ast.walk(node):
        dynamic = dynamic_lookup(child)
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
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and definitions:
            found.add(child.name)
        elif isinstance(child, ast.alias) and child.name == "*":
            found.add(ALL)  # (an imported name is not a use of it: its uses are the names that call it)
        elif isinstance(child, (ast.Global, ast.Nonlocal)):
            found.add(ALL)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str) and IDENT.match(child.value):
            found.add(child.value)  # a fixture or attribute named in a string (getfixturevalue, hasattr)
    return found


def top_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names a file's top level assigns, names it defines with def or class)."""
    assigned, defined = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return assigned, defined


def changes_shared_state(node: ast.AST, assigned: set[str], defined: set[str]) -> bool:
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
            root = root_name(child)
            if (root not in own and root in assigned | defined) or through_the_class(child):
                return True
        elif isinstance(child, ast.Call) and call_name(child) in IO_CALLS:
            return True
        elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) \
                and (child.func.attr in MUTATORS or child.func.attr.endswith("_")):
            root = root_name(child.func)
            if (root not in own and root in assigned) or through_the_class(child.func):
                return True
    return False


def through_the_class(node: ast.AST) -> bool:
    """x.__class__.a, type(x).a: an attribute of a class, reached from an instance."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute) and node.attr == "__class__":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type":
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def root_name(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call, ast.Starred)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


# ----------------------------------------------------------------------------- a kept cost pass

# What a graded run could use to reach code or state no name shows, beyond the lookups above: the interpreter's and
# the collector's tables, frames and tracebacks, a function's code and closure, a class's family, processes and
# threads, pickling, lookups by a string (`getattr` passed as a value, `attrgetter`, `resolve_name`), and the files
# it could read its own source from (comments and formatting are not in a key, nor are the bodies of functions a
# form cannot call: any byte of a file it reads would tell two submissions keyed alike apart). A form that mentions
# one is keyed by the whole submission, and so is one that mentions a name holding one of `FILE_WORDS`.
STRICT = frozenset({
    "gc", "ctypes", "sys", "types", "marshal", "pickle", "dill", "cloudpickle", "copyreg", "weakref", "threading",
    "_thread", "signal", "atexit", "os", "posix", "multiprocessing", "subprocess", "shutil", "tempfile", "io",
    "codecs", "glob", "fileinput", "zipimport", "zipfile", "tarfile", "sqlite3", "shelve", "dbm", "socket", "urllib",
    "__code__", "__closure__", "__globals__", "__wrapped__", "__subclasses__", "__mro__", "__bases__", "__base__",
    "__self__", "__func__", "__defaults__", "__kwdefaults__", "__getattribute__", "__getattr__", "__setattr__",
    "__delattr__", "__dict__", "__doc__", "__traceback__", "__class_getitem__", "__init_subclass__", "__set_name__",
    "__name__", "__qualname__", "__module__", "__package__", "__cached__", "__builtins__", "__import__",
    "_getframe", "f_back", "f_code", "f_globals", "f_locals", "f_lineno", "tb_frame", "tb_lineno", "co_firstlineno",
    "traceback", "warnings", "logging", "get_objects", "get_referrers", "get_referents", "modules",
    "getattr", "setattr", "delattr", "hasattr", "vars", "dir", "attrgetter", "methodcaller", "operator",
    "resolve_name", "pkgutil", "pydoc", "locate", "import_module", "runpy", "time", "datetime", "perf_counter",
    "monotonic", "cpu_count", "random", "secrets", "uuid", "platform", "environ", "getenv"})
FILE_WORDS = ("file", "load", "read", "open", "path", "dir", "mmap", "spec", "loader", "source", "linecache",
              "tokenize")  # in a name, lower case: a file read, its own source among them
FORM_READING = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # these rules: part of every form's key
WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _untrusted(said: frozenset[str]) -> bool:
    """Whether a piece that mentions ``said`` reaches what this reading cannot follow."""
    return ALL in said or bool(said & STRICT) or any(w in name.lower() for name in said for w in FILE_WORDS)


def _said(node: ast.AST, definitions: bool = True) -> tuple[frozenset[str], frozenset[str]]:
    """(what ``node`` mentions (`mentions`), every word of every string in it): a function whose name is handed
    over in a string, whole or in part ("module:_helper"), is reached; a word in a string is no call (`_untrusted`
    reads the first)."""
    words: set[str] = set()
    idle = {id(c.value) for c in ast.walk(node) if isinstance(c, ast.Expr)}  # a docstring, a string left alone
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str) and id(child) not in idle:
            words |= set(WORDS.findall(child.value))
    return frozenset(mentions(node, definitions)), frozenset(words)


def _hollowed(node: ast.AST) -> ast.AST:
    """``node`` (a def) with its body left out: what running the file's top level runs of it (its decorators,
    defaults and annotations), not what calling it runs."""
    node.body = [ast.Pass()]
    return node


def _apart(node: ast.stmt) -> bool:
    """A function whose body runs only where it is called by a name: a top-level ``def`` without decorators (a
    decorator may call it at import or register it where no name shows: ``functools.singledispatch``'s
    ``register``). Everything else of a file (classes whole, decorated functions) is its skeleton."""
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list


class _Pieces:
    """A submission's Python files read as what a call can run: each file's skeleton (what importing it runs and
    may call unasked: its top level, every class whole, every decorated function), and each plain top-level
    function (`_apart`). A piece reaches every function named by a name or a string word it mentions, in the
    files imported so far; a file is imported where an import statement on the way names it, with its packages'
    ``__init__``. A form is a function's name, or a class's (its file's skeleton holds it)."""

    def __init__(self, files: list[tuple[str, bytes]]) -> None:
        self.names = {rel for rel, _ in files}
        # file -> (print, (names, words) it mentions, files it imports)
        self.skeletons: dict[str, tuple[str, tuple[frozenset[str], frozenset[str]], frozenset[str]]] = {}
        # key -> (file, print, (names, words) it mentions, files it imports, whether it changes state kept between
        # calls)
        self.pieces: dict[str, tuple[str, str, tuple[frozenset[str], frozenset[str]], frozenset[str], bool]] = {}
        self.by_name: dict[str, list[str]] = {}
        self.classes: dict[str, list[str]] = {}  # class name -> the files that define one
        self.unreadable = False
        for rel, data in files:
            self._add(rel, data)

    def _add(self, rel: str, data: bytes) -> None:
        try:  # from the bytes, as the interpreter reads them (a coding line decides how: blind attacks39)
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError, LookupError, UnicodeError):
            self.unreadable = True
            return
        if not _utf8(data):
            self.unreadable = True  # (a file the reading and an editor would see as other text)
        assigned, defined = top_names(tree)
        skeleton = copy.deepcopy(tree)
        for n, (node, hollow) in enumerate(zip(tree.body, skeleton.body)):
            if _apart(node):
                key = f"{rel}::{n}:{node.name}"  # (two defs of one name are two pieces)
                self.pieces[key] = (rel, ast.dump(node), _said(node), self._imports(rel, node),
                                    changes_shared_state(node, assigned, defined))
                self.by_name.setdefault(node.name, []).append(key)
                _hollowed(hollow)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if changes_shared_state(node, assigned, defined):
                    self.unreadable = True  # run at import or whenever: what one call leaves, the next finds
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, []).append(rel)
        self.skeletons[rel] = (ast.dump(skeleton), _said(skeleton, definitions=False), self._imports(rel, skeleton))

    def _imports(self, rel: str, node: ast.AST) -> frozenset[str]:
        """The submission's files an import statement in ``node`` may load (a name it does not find is a library's)."""
        found: set[str] = set()
        package = rel.split("/")[:-1]
        for child in ast.walk(node):
            if isinstance(child, ast.Import):
                found |= {f for a in child.names for f in self._files_of(a.name.split("."))}
            elif isinstance(child, ast.ImportFrom):
                base = (package[:len(package) - child.level + 1] if child.level else []) + \
                    (child.module.split(".") if child.module else [])
                found |= self._files_of(base)
                found |= {f for a in child.names for f in self._files_of([*base, a.name])}
        return frozenset(found)

    def _files_of(self, parts: list[str]) -> set[str]:
        """A module's file and its packages' ``__init__`` files, where the submission has them."""
        found = set()
        for i in range(1, len(parts) + 1):
            found |= {f for f in ("/".join(parts[:i]) + ".py", "/".join(parts[:i]) + "/__init__.py")
                      if f in self.names}
        return found

    def _home(self, form: str) -> set[str]:
        """The files (with their packages' ``__init__``) that define ``form``."""
        homes = [k.split("::")[0] for k in self.by_name.get(form, [])] + self.classes.get(form, [])
        return {f for rel in homes for f in self._files_of(rel[:-3].split("/"))}

    def reached(self, forms: tuple[str, ...]) -> tuple[list[str], list[str]] | None:
        """(the files imported, the functions run) by a call of ``forms``, or None where this reading cannot tell:
        a form it does not find, a lookup it cannot follow or state kept between calls on the way."""
        if self.unreadable or not forms or any(not self._home(form) for form in forms):
            return None
        files = set().union(*(self._home(form) for form in forms))
        names, seen = set(forms), set()
        while True:
            for rel in files:
                said, words = self.skeletons[rel][1]
                if _untrusted(said):
                    return None
                names |= said | words
            pieces = {k for n in names for k in self.by_name.get(n, []) if self.pieces[k][0] in files}
            grown = {i for f in files for i in self.skeletons[f][2]} - files
            if pieces <= seen and not grown:
                return sorted(files), sorted(seen)
            for key in pieces - seen:
                rel, _, (said, words), imports, shared = self.pieces[key]
                if shared or _untrusted(said):
                    return None
                names |= said | words
                files |= imports
            files |= grown
            seen |= pieces


def _utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 text whose coding line, if any, says so: what the reading reads is what runs."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    for line in text.splitlines()[:2]:
        cookie = re.match(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", line)
        if cookie:
            return cookie.group(1).lower().replace("_", "-") in ("utf-8", "utf8")
    return True


def form_key(files: list[tuple[str, bytes]], folders: list[str], forms: tuple[str, ...]) -> bytes | None:
    """What a call of ``forms`` can run of a submission whose Python files are ``files`` (name, contents) in
    ``folders``, as a digest: the same for two submissions only where the files are named alike and every file such
    a call imports (its skeleton) and every function it can reach are the same (formatting and comments aside).
    None where the reading cannot tell (a file that does not parse or is not plain UTF-8, state kept between calls,
    a lookup by a computed name, introspection, a file read): the whole code is the key then."""
    pieces = _Pieces(sorted(files))
    reached = pieces.reached(tuple(forms))
    if reached is None:
        return None
    imported, run = reached
    whole = hashlib.sha256(FORM_READING.encode())
    for part in (*sorted(folders), *(name for name, _ in sorted(files)), "\0", *forms, "\0",
                 *(f"{rel}={pieces.skeletons[rel][0]}" for rel in imported),
                 *(f"{k}={pieces.pieces[k][1]}" for k in run)):
        whole.update(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest())
    return whole.digest()
