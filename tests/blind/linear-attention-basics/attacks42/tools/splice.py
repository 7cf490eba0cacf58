"""Replace top-level functions/classes of one module source with those of another (by name)."""
import ast


def blocks(src):
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            start = node.lineno - 1 - len(node.decorator_list)
            out[node.name] = (start, node.end_lineno, "".join(lines[start:node.end_lineno]))
    return out


def splice(template_src, donor_src, names, extra_helpers=""):
    """template_src with each def in names replaced by donor_src's; extra_helpers goes before the first replaced def."""
    donor = blocks(donor_src)
    tb = blocks(template_src)
    lines = template_src.splitlines(keepends=True)
    first = min(tb[n][0] for n in names if n in tb)
    for name in sorted(names, key=lambda n: -tb[n][0]):
        s, e, _ = tb[name]
        lines[s:e] = [donor[name][2]]
    if extra_helpers:
        # insert at the earliest replaced def (its index is unchanged since later edits happen below it)
        lines.insert(first, extra_helpers + "\n\n")
    return "".join(lines)
