"""Build the example class for per-student numbers: seven submissions of linear-attention-hybrid.

    python examples/variants/make_class.py [DIR]     # DIR: examples/variants/class

Each is solutions/linear-attention-hybrid/'s attention.py and notebook, the folder named after the student id,
the notebook's `STUDENT_ID` cell set to it, and Exercise 5's answers cell filled in with numbers worked out by
the kit itself (the answer key's formulas at a student's parameters: grader/variants.py via
answers/formulas.py), never by hand:

    ada, eli, fay, gus   their own numbers (right)
    dee                  ada's numbers (copied from a classmate: wrong, "matches the variant of ada")
    cy                   the notebook's default numbers (wrong: "matches the default numbers")
    hal                  no STUDENT_ID set, the default numbers (right for him, and listed as having no id)

The ids are chosen so that the listing is clean: no two of these students share a number that the copied and
the default answers give (else an answer would match two variants); `build` refuses if the rule ever changes
that. expected.yaml says what grading must find.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))
from grader.config import load_assignment  # noqa: E402  (the kit, from this checkout)
from grader.grading.answers.formulas import variant_key, varies  # noqa: E402
from grader.grading.pipeline import answer_key  # noqa: E402
from grader.variants import parameters_for  # noqa: E402

ASSIGNMENT = "linear-attention-hybrid"
SOLUTION = REPO / "solutions" / ASSIGNMENT
MODULE, NOTEBOOK = Path("g2c/linear_attention/attention.py"), "linear_attention_hybrid.ipynb"
OWN = ["ada", "eli", "fay", "gus"]
COPIES = {"dee": "ada"}  # student -> the classmate whose numbers they answer with
DEFAULTS = ["cy"]  # answers with the notebook's default numbers
NO_ID = ["hal"]  # STUDENT_ID left empty (graded with the defaults)
RTOL = 0.011  # just above the key's widest tolerance (1%): numbers this close count as the same answer
_ID_LINE = re.compile(r'^STUDENT_ID = ""', re.MULTILINE)
_ANSWER_LINE = re.compile(r"^(?P<id>[a-z0-9_]+): .*$", re.MULTILINE)


def numbers_of(student: str) -> dict[str, int | float]:
    """The student's parameters (the defaults for "")."""
    config = load_assignment(SOLUTION)
    return parameters_for(config.variants, config.name, student)


def answers_for(parameters: dict[str, int | float]) -> dict[str, int | float]:
    """Exercise 5's right answers (bytes) at ``parameters``: the key's formulas, evaluated by the kit."""
    config = load_assignment(SOLUTION)
    key = answer_key(SOLUTION, config)
    return {a: entry.value for a, entry in variant_key(key, parameters).items() if varies(key[a])}


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= RTOL * max(abs(x), abs(y))


def _refuse_ambiguity(worked: dict[str, dict[str, int | float]], default: dict[str, int | float]) -> None:
    """Each answer given with someone else's numbers must be wrong for the student (or right, by coincidence)
    and right for no other student than the one meant: else expected.yaml would not hold."""
    given = {**{s: worked[o] for s, o in COPIES.items()}, **{s: default for s in DEFAULTS}}
    for student, answers in given.items():
        meant = COPIES.get(student)
        rivals = {o: worked[o] for o in worked if o not in (student, meant)}
        if meant is not None:
            rivals["the defaults"] = default
        for answer, value in answers.items():
            if _close(value, worked[student][answer]):
                continue
            clash = [o for o, theirs in rivals.items() if _close(value, theirs[answer])]
            if clash:
                raise SystemExit(f"{student}'s {answer} is right for {', '.join(clash)} too: pick other student "
                                 "ids in examples/variants/make_class.py")
    if any(_close(worked[s]["mha_cache_one_layer"], given[s]["mha_cache_one_layer"]) for s in given):
        raise SystemExit("a copied or default answer is right for its student: pick other student ids")


def with_student(nb_text: str, student: str, answers: dict[str, int | float]) -> str:
    """The notebook with its STUDENT_ID cell set and Exercise 5's answers cell filled in (bytes, with a unit)."""
    nb = json.loads(nb_text)
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and _ID_LINE.search(source) and student:
            source = _ID_LINE.sub(f'STUDENT_ID = "{student}"', source, count=1)
        elif "answers" in tags and "exercise:ex5" in tags:
            source = _ANSWER_LINE.sub(lambda m: f"{m['id']}: {answers[m['id']]:.0f} B" if m["id"] in answers
                                      else m[0], source)
        cell["source"] = source.splitlines(keepends=True)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def build() -> dict[str, str]:
    """Every student's notebook text, by folder (= student id)."""
    worked = {s: answers_for(numbers_of(s)) for s in OWN + list(COPIES) + DEFAULTS}
    default = answers_for(numbers_of(""))
    _refuse_ambiguity(worked, default)
    nb = (SOLUTION / NOTEBOOK).read_text(encoding="utf-8")
    made = {s: with_student(nb, s, worked[s]) for s in OWN}
    made.update({s: with_student(nb, s, worked[of]) for s, of in COPIES.items()})
    made.update({s: with_student(nb, s, default) for s in DEFAULTS})
    made.update({s: with_student(nb, "", default) for s in NO_ID})
    return made


def write(out: Path, made: dict[str, str]) -> None:
    if out.exists():
        shutil.rmtree(out)
    for name, nb in sorted(made.items()):
        folder = out / name
        (folder / MODULE.parent).mkdir(parents=True)
        shutil.copy(SOLUTION / MODULE, folder / MODULE)
        (folder / NOTEBOOK).write_text(nb, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", default=str(HERE / "class"))
    out = Path(p.parse_args(argv).out)
    write(out, build())
    print(f"wrote {len(list(out.iterdir()))} submissions into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
