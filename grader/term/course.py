"""course.yaml, loaded once into frozen records and checked like the rubric (file, line, fix).

    course: LA-101                       # a name
    timezone: America/New_York           # dates without an offset are in this zone
    ledger: term.sqlite                  # relative to course.yaml
    roster: roster.csv                   # a Canvas or Moodle gradebook export, or a plain CSV
    sections: [A01, A02]
    lms: canvas                          # canvas | moodle | csv: what `grade export` writes by default
    grace_minutes: 15                    # a submission this late is on time
    late_policy: {kind: per_day, percent: 10, cap: 50}   # per_day | per_hour | bank | none
    assignments:
      linear-attention-basics:
        due: "2026-09-15 23:59"
        lock: "2026-09-22 23:59"
        lms_column: "Basics (1234)"                # the LMS's column (default: the roster export's, by title)
        submissions: downloads/basics              # what the class handed in (for names, zips, times)
        times: times.csv                           # submission,submitted_at (or student,submitted_at)
        gradescope: submission_metadata.yml        # or Gradescope's metadata
        mapping: mapping.csv                       # submission,student, for names no rule matches
        visibility: {your_turn: after_due_date}    # per item: visible | after_due_date | after_published | hidden
    extensions:                          # one student, one assignment: a new due date or extra days
      - {student: s1001, assignment: linear-attention-basics, days: 2, reason: illness}
    accommodations:                      # standing, every assignment: extra_days or a multiplier of the window
      - {student: s1003, extra_days: 3}
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from grader.config import FEEDBACK_VISIBILITY
from grader.term.yamlfile import YamlFile, read_yaml

LATE_KINDS = ("per_day", "per_hour", "bank", "none")
LMS_KINDS = ("canvas", "moodle", "csv")
TOP_KEYS = ("course", "timezone", "ledger", "roster", "sections", "lms", "grace_minutes", "late_policy",
            "assignments", "extensions", "accommodations")
ASSIGNMENT_KEYS = ("due", "lock", "opens", "title", "lms_column", "late_policy", "submissions", "times",
                   "gradescope", "mapping", "visibility")
INPUTS = ("submissions", "times", "gradescope", "mapping")
DATE_FIX = 'write it as "2026-09-15 23:59" (in the course timezone) or "2026-09-15T23:59:00-04:00"'


@dataclass(frozen=True)
class LatePolicy:
    """per_day/per_hour: `percent` of the score earned per started day/hour late, at most `cap` percent.
    bank: each student has `bank_days` late days for the term, spent a whole day at a time in due-date
    order; days beyond the bank cost `percent` per day (at most `cap`)."""

    kind: str = "none"
    percent: float = 0.0
    cap: float = 100.0
    bank_days: int = 0


@dataclass(frozen=True)
class Inputs:
    """What the class handed in besides the reports, as paths (relative ones are relative to course.yaml)."""

    submissions: Path | None = None  # the bulk download (for names, identity files, sha256 and times)
    times: Path | None = None  # a times CSV
    gradescope: Path | None = None  # Gradescope's submission metadata
    mapping: Path | None = None  # a mapping CSV (submission,student)


@dataclass(frozen=True)
class Deadline:
    assignment: str
    due: dt.datetime
    lock: dt.datetime | None = None
    opens: dt.datetime | None = None
    title: str = ""
    lms_column: str = ""  # "" : the roster export's column for this title, else the title
    late_policy: LatePolicy | None = None  # None: the course's
    inputs: Inputs = Inputs()
    visibility: tuple[tuple[str, str], ...] = ()  # (item id, FEEDBACK_VISIBILITY level): stricter than default


@dataclass(frozen=True)
class Extension:
    student: str
    assignment: str
    due: dt.datetime | None = None
    days: float = 0.0
    lock: dt.datetime | None = None  # an extension may move the lock date too (default: by as much as the due)
    reason: str = ""


@dataclass(frozen=True)
class Accommodation:
    """Standing, for every assignment: `extra_days` added to due and lock, or `multiplier` of the window
    from `opens` to `due` (1.5: half as much time again)."""

    student: str
    extra_days: float = 0.0
    multiplier: float = 1.0
    reason: str = ""


@dataclass(frozen=True)
class Course:
    path: Path
    name: str
    timezone: str
    ledger: Path
    roster: Path | None
    sections: tuple[str, ...]
    lms: str
    grace: dt.timedelta
    late_policy: LatePolicy
    deadlines: tuple[Deadline, ...]
    extensions: tuple[Extension, ...] = ()
    accommodations: tuple[Accommodation, ...] = ()
    digest: str = ""  # sha256 of course.yaml: which policy a computed penalty came from

    def deadline(self, assignment: str) -> Deadline | None:
        return next((d for d in self.deadlines if d.assignment == assignment), None)

    def policy_for(self, assignment: str) -> LatePolicy:
        d = self.deadline(assignment)
        return d.late_policy if d is not None and d.late_policy is not None else self.late_policy


def load_course(path: Path) -> Course:
    """Load and check course.yaml; raises grader.config.ConfigError naming the file, line and fix."""
    doc = read_yaml(path)
    data = doc.data
    _known(doc, (), data, TOP_KEYS)
    zone = _zone(doc, data.get("timezone", "UTC"))
    base = path.parent
    sections = tuple(str(s) for s in _list(doc, ("sections",), data.get("sections", [])))
    lms = data.get("lms", "csv")
    if lms not in LMS_KINDS:
        raise doc.error(("lms",), f"{lms!r} is not one of {', '.join(LMS_KINDS)}", "write lms: canvas")
    grace = _number(doc, ("grace_minutes",), data.get("grace_minutes", 0))
    deadlines = _deadlines(doc, zone)
    names = {d.assignment for d in deadlines}
    extensions = tuple(_extension(doc, n, raw, zone, names) for n, raw in
                       enumerate(_list(doc, ("extensions",), data.get("extensions", []))))
    accommodations = tuple(_accommodation(doc, n, raw) for n, raw in
                           enumerate(_list(doc, ("accommodations",), data.get("accommodations", []))))
    if "course" not in data or not isinstance(data["course"], str):
        raise doc.error(("course",), "missing or not text: the course's name", "write course: LA-101")
    return Course(path=path, name=data["course"], timezone=str(zone),
                  ledger=base / str(data.get("ledger", "term.sqlite")),
                  roster=base / str(data["roster"]) if data.get("roster") else None, sections=sections, lms=lms,
                  grace=dt.timedelta(minutes=grace),
                  late_policy=_policy(doc, ("late_policy",), data.get("late_policy", {})),
                  deadlines=deadlines, extensions=extensions, accommodations=accommodations,
                  digest=hashlib.sha256(path.read_bytes()).hexdigest())


def _known(doc: YamlFile, key: tuple, data: Any, allowed: tuple[str, ...]) -> dict:
    if not isinstance(data, dict):
        raise doc.error(key, f"expected a mapping, got {type(data).__name__}", "write 'key: value' lines under it")
    for name in data:
        if name not in allowed:
            raise doc.error(key + (name,), f"unknown key {name!r} (known: {', '.join(allowed)})",
                            "check its spelling and indentation")
    return data


def _list(doc: YamlFile, key: tuple, value: Any) -> list:
    if not isinstance(value, list):
        raise doc.error(key, f"expected a list, got {type(value).__name__}", "write it as '- item' lines or [a, b]")
    return value


def _number(doc: YamlFile, key: tuple, value: Any, low: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
        raise doc.error(key, f"expected a number of at least {low:g}, got {value!r}", "write a plain number")
    return float(value)


def _text(doc: YamlFile, key: tuple, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise doc.error(key, f"expected text, got {value!r}", "quote it")
    return str(value)


def _zone(doc: YamlFile, name: Any) -> ZoneInfo:
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise doc.error(("timezone",), f"unknown time zone {name!r}",
                        "write an IANA name such as America/New_York, Europe/Berlin or UTC") from None


def parse_when(value: Any, zone: ZoneInfo) -> dt.datetime | None:
    """A datetime with a time zone from a YAML value or CSV text; None if it is not one."""
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        if len(value.strip()) <= 10:  # a bare date: when on that day?
            return None
    else:
        return None
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment


def _date(doc: YamlFile, key: tuple, value: Any, zone: ZoneInfo) -> dt.datetime:
    moment = parse_when(value, zone)
    if moment is None:
        raise doc.error(key, f"{value!r} is not a date and time", DATE_FIX)
    return moment


def _policy(doc: YamlFile, key: tuple, raw: Any) -> LatePolicy:
    data = _known(doc, key, raw, ("kind", "percent", "cap", "bank_days"))
    kind = data.get("kind", "none")
    if kind not in LATE_KINDS:
        raise doc.error(key + ("kind",), f"{kind!r} is not one of {', '.join(LATE_KINDS)}", "write kind: per_day")
    percent = _number(doc, key + ("percent",), data.get("percent", 0))
    cap = _number(doc, key + ("cap",), data.get("cap", 100))
    if percent > 100 or cap > 100:
        raise doc.error(key + ("percent" if percent > 100 else "cap",), "is a percentage of the points, over 100",
                        "write a number from 0 to 100")
    bank = _number(doc, key + ("bank_days",), data.get("bank_days", 0))
    if kind in ("per_day", "per_hour") and percent == 0:
        raise doc.error(key + ("percent",), f"kind {kind} needs the penalty", "write percent: 10 (per day or hour)")
    if kind == "bank" and not bank.is_integer():
        raise doc.error(key + ("bank_days",), "late days are spent whole", "write bank_days: 5")
    return LatePolicy(kind, percent, cap, int(bank))


def _deadlines(doc: YamlFile, zone: ZoneInfo) -> tuple[Deadline, ...]:
    raw = doc.data.get("assignments")
    if not isinstance(raw, dict) or not raw:
        raise doc.error(("assignments",), "missing or empty: each assignment's due date",
                        'write assignments: {linear-attention-basics: {due: "2026-09-15 23:59"}}')
    out = [_assignment(doc, str(name), spec, zone) for name, spec in raw.items()]
    return tuple(sorted(out, key=lambda d: (d.due, d.assignment)))


def _assignment(doc: YamlFile, name: str, spec: Any, zone: ZoneInfo) -> Deadline:
    key = ("assignments", name)
    spec = _known(doc, key, spec, ASSIGNMENT_KEYS)
    if "due" not in spec:
        raise doc.error(key, "has no due date", f'write due: "2026-09-15 23:59" under {name}')
    due = _date(doc, key + ("due",), spec["due"], zone)
    lock = _date(doc, key + ("lock",), spec["lock"], zone) if "lock" in spec else None
    opens = _date(doc, key + ("opens",), spec["opens"], zone) if "opens" in spec else None
    if lock is not None and lock < due:
        raise doc.error(key + ("lock",), "is before the due date", "the lock date is the last moment accepted")
    if opens is not None and opens >= due:
        raise doc.error(key + ("opens",), "is not before the due date", "opens is when students get it")
    policy = _policy(doc, key + ("late_policy",), spec["late_policy"]) if "late_policy" in spec else None
    paths = {k: doc.path.parent / _text(doc, key + (k,), spec[k]) for k in INPUTS if k in spec}
    title = str(spec.get("title", name))
    return Deadline(name, due, lock, opens, title, str(spec.get("lms_column", "")), policy, Inputs(**paths),
                    _visibility(doc, key + ("visibility",), spec.get("visibility", {})))


def _visibility(doc: YamlFile, key: tuple, raw: Any) -> tuple[tuple[str, str], ...]:
    data = _known(doc, key, raw, tuple(raw) if isinstance(raw, dict) else ())
    for item, level in data.items():
        if level not in FEEDBACK_VISIBILITY:
            raise doc.error(key + (item,), f"{level!r} is not one of {', '.join(FEEDBACK_VISIBILITY)}",
                            f"write {item}: after_published")
    return tuple((str(item), str(level)) for item, level in data.items())


def _extension(doc: YamlFile, n: int, raw: Any, zone: ZoneInfo, names: set[str]) -> Extension:
    key = ("extensions", n)
    data = _known(doc, key, raw, ("student", "assignment", "due", "days", "lock", "reason"))
    for need in ("student", "assignment"):
        if need not in data:
            raise doc.error(key, f"missing {need!r}", "write {student: ID, assignment: NAME, days: 2}")
    assignment = _text(doc, key + ("assignment",), data["assignment"])
    if assignment not in names:
        raise doc.error(key + ("assignment",), f"{assignment!r} is not under assignments:",
                        f"write one of {', '.join(sorted(names))}")
    if ("due" in data) == ("days" in data):
        raise doc.error(key, "needs exactly one of 'due' (a new date) and 'days' (extra days)",
                        "write days: 2, or due: \"2026-09-18 23:59\"")
    due = _date(doc, key + ("due",), data["due"], zone) if "due" in data else None
    lock = _date(doc, key + ("lock",), data["lock"], zone) if "lock" in data else None
    return Extension(_text(doc, key + ("student",), data["student"]), assignment, due,
                     _number(doc, key + ("days",), data.get("days", 0)), lock, str(data.get("reason", "")))


def _accommodation(doc: YamlFile, n: int, raw: Any) -> Accommodation:
    key = ("accommodations", n)
    data = _known(doc, key, raw, ("student", "extra_days", "multiplier", "reason"))
    if "student" not in data or ("extra_days" in data) == ("multiplier" in data):
        raise doc.error(key, "needs a student and exactly one of extra_days and multiplier",
                        "write {student: ID, extra_days: 3} or {student: ID, multiplier: 1.5}")
    multiplier = _number(doc, key + ("multiplier",), data.get("multiplier", 1.0), low=1.0)
    if multiplier != 1.0:
        missing = [d.assignment for d in _deadlines(doc, ZoneInfo("UTC")) if d.opens is None]
        if missing:
            raise doc.error(key + ("multiplier",), f"multiplies the window from 'opens' to 'due', and "
                            f"{missing[0]} has no opens date", f"add opens: \"...\" to {missing[0]}, or use extra_days")
    return Accommodation(_text(doc, key + ("student",), data["student"]),
                         _number(doc, key + ("extra_days",), data.get("extra_days", 0)), multiplier,
                         str(data.get("reason", "")))
