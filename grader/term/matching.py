"""Which student handed in which submission, from what the class hands in, first rule that answers wins:

1. a mapping CSV (submission,student) the staff wrote;
2. Gradescope's submission metadata (`submission_<id>` -> its submitters' sid or email);
3. a Canvas bulk download name, `<name>_[late_]<user id>_<submission id>_<original name>` (the user id);
4. a Moodle bulk download name, `<Full Name>_<participant id>_assignsubmission_file_[<original name>]`
   (the full name, which must be one student's);
5. the `student` field of the submission's own lrkit-assignment.json;
6. a folder named after the student's id, login, SIS id or email.

Anything else is listed as unknown; so is a name two students share (never guessed)."""
from __future__ import annotations

import json
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from grader.bundle import IDENTITY
from grader.term.roster import Roster, RosterError, Student, read_csv_rows

CANVAS = re.compile(r"^(?P<name>[A-Za-z0-9-]+?)_(?P<late>late_)?(?P<uid>\d+)_(?P<sub>\d+)(?:_(?P<orig>.*))?$",
                    re.IGNORECASE)
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<pid>\d+)_assign(?:submission|feedback)_[A-Za-z]+(?:_(?P<orig>.*))?$")
MAX_IDENTITY = 64_000
MAX_METADATA = 20_000_000


@dataclass(frozen=True)
class Entry:
    folder: str  # the submission's folder in the batch output (its report's `submission`)
    path: Path | None = None  # the entry in the submissions folder, when given


@dataclass(frozen=True)
class Match:
    folder: str
    students: tuple[str, ...]  # roster keys; empty: unknown
    how: str  # which rule, in words
    lms_late: bool = False  # Canvas named the file late_


def read_gradescope(path: Path) -> dict[str, dict]:
    """Gradescope's submission metadata, as {"submission_<id>": {"submitters": [{"name", "sid", "email"}],
    "created_at": ...}}: the export's submission_metadata.yml (or .json; older exports write the keys with a
    leading ':'), or one autograder's /autograder/submission_metadata.json ({"id", "created_at", "users"})."""
    try:
        if path.stat().st_size > MAX_METADATA:
            raise RosterError(f"{path}: over {MAX_METADATA // 1_000_000} MB; is this Gradescope's metadata?")
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text) if path.suffix.lower() in (".yml", ".yaml") else json.loads(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        why = " ".join(str(getattr(exc, "problem", None) or exc).split())[:200]
        raise RosterError(f"{where}: not Gradescope's submission metadata ({why}); download the export again") from None
    if isinstance(data, dict) and "users" in data and "id" in data:  # one autograder run's metadata
        data = {f"submission_{data['id']}": {"submitters": data.get("users"), "created_at": data.get("created_at")}}
    if not isinstance(data, dict):
        raise RosterError(f"{path}: expected a mapping of submission_<id> to its metadata")
    out = {}
    for name, meta in data.items():
        if isinstance(meta, dict):
            plain = {str(k).lstrip(":"): v for k, v in meta.items()}
            subs = plain.get("submitters") if isinstance(plain.get("submitters"), list) else []
            plain["submitters"] = [{str(k).lstrip(":"): str(v) for k, v in s.items()} for s in subs
                                   if isinstance(s, dict)]
            out[str(name)] = plain
    return out


def read_mapping(path: Path) -> dict[str, str]:
    rows = read_csv_rows(path, what="a mapping CSV (submission,student)")
    if not rows or [h.lower() for h in rows[0][:2]] != ["submission", "student"]:
        raise RosterError(f"{path}:1: a mapping file starts with the header 'submission,student'")
    return {r[0]: r[1] for r in rows[1:] if len(r) >= 2 and r[0]}


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _identity_student(path: Path | None) -> str:
    """The `student` of the submission's lrkit-assignment.json (folder or zip), size-capped; '' if none."""
    if path is None or path.is_symlink():
        return ""
    data = b""
    try:
        if path.is_dir() and (path / IDENTITY).is_file() and not (path / IDENTITY).is_symlink():
            if (path / IDENTITY).stat().st_size <= MAX_IDENTITY:
                data = (path / IDENTITY).read_bytes()
        elif path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                info = next((i for i in zf.infolist() if Path(i.filename).name == IDENTITY), None)
                if info is not None and info.file_size <= MAX_IDENTITY:
                    data = zf.read(info)
        value = json.loads(data).get("student", "") if data else ""
    except (OSError, ValueError, zipfile.BadZipFile, AttributeError):
        return ""
    return value[:200] if isinstance(value, str) else ""


class Matcher:
    """Matches entries to a roster, one rule after another (the module's docstring)."""

    def __init__(self, roster: Roster, mapping: dict[str, str] | None = None,
                 gradescope: dict[str, dict] | None = None):
        self.roster, self.mapping, self.gradescope = roster, mapping or {}, gradescope or {}
        self.keys = roster.by_key()
        self.by_lms = {s.lms_id: s.key for s in roster.students if s.lms_id}
        self.by_alias = self._aliases(roster.students)
        names: dict[str, list[str]] = {}
        for s in roster.students:
            names.setdefault(_norm(s.name), []).append(s.key)
        self.by_name = names

    @staticmethod
    def _aliases(students: tuple[Student, ...]) -> dict[str, str]:
        out: dict[str, str] = {}
        for s in students:
            for alias in (s.key, s.login, s.sis_id, s.email, s.email.split("@")[0] if s.email else ""):
                if alias:
                    out.setdefault(alias.casefold(), s.key)
        return out

    def _alias(self, text: str) -> str | None:
        return self.by_alias.get(text.strip().casefold())

    def match(self, entry: Entry) -> Match:
        raw = entry.path.name if entry.path is not None else entry.folder
        stem = raw[:-4] if raw.lower().endswith(".zip") else raw
        for name in (entry.folder, raw, stem):
            if name in self.mapping:
                key = self._alias(self.mapping[name])
                return Match(entry.folder, (key,) if key else (), f"mapping file: {self.mapping[name]!r}"
                             + ("" if key else " is not on the roster"))
        meta = self.gradescope.get(stem) or self.gradescope.get(entry.folder)
        if meta is not None:
            keys = tuple(k for s in meta["submitters"] for k in [self._alias(s.get("sid", "")) or
                                                                  self._alias(s.get("email", ""))] if k)
            return Match(entry.folder, keys, "Gradescope submission_metadata.json"
                         + ("" if keys else ": its submitters are not on the roster"))
        found = self._from_names(entry, stem)
        if found is not None:
            return found
        key = self._alias(stem)
        if key:
            return Match(entry.folder, (key,), "the folder is named after the student")
        return Match(entry.folder, (), "no rule matched: add it to a mapping file (submission,student)")

    def _from_names(self, entry: Entry, stem: str) -> Match | None:
        canvas = CANVAS.match(stem) or CANVAS.match(entry.folder)
        if canvas and canvas["uid"] in self.by_lms:
            return Match(entry.folder, (self.by_lms[canvas["uid"]],), f"Canvas download name (user id "
                         f"{canvas['uid']})", lms_late=bool(canvas["late"]))
        moodle = MOODLE.match(stem) or MOODLE.match(entry.folder)
        if moodle:
            keys = self.by_name.get(_norm(moodle["name"]), [])
            if len(keys) == 1:
                return Match(entry.folder, (keys[0],), f"Moodle download folder (participant {moodle['pid']})")
            why = "two students on the roster have this name" if keys else "no student on the roster has this name"
            return Match(entry.folder, (), f"Moodle download folder: {why}; add it to a mapping file")
        student = _identity_student(entry.path)
        if student:
            key = self._alias(student)
            return Match(entry.folder, (key,) if key else (), f"{IDENTITY} names {student!r}"
                         + ("" if key else ", who is not on the roster"))
        return None
