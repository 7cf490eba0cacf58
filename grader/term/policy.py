"""Late penalties, computed from course.yaml whenever a grade is shown or exported (never stored as a number):
the student's own deadline (accommodation, then extension), the grace period, the lock date, the late policy
and, for a late-day bank, the days the student spent on earlier assignments (in due-date order).

A penalty is a fraction of the score earned; `explain` says in words how it was reached."""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from grader.term.course import Course, Deadline, LatePolicy

DAY = dt.timedelta(days=1)
HOUR = dt.timedelta(hours=1)


@dataclass(frozen=True)
class StudentDeadline:
    due: dt.datetime
    lock: dt.datetime | None
    why: tuple[str, ...] = ()  # what moved it: "accommodation: +3 days", "extension to ..."


@dataclass(frozen=True)
class Penalty:
    state: str  # on_time | late | after_lock | missing | time_unknown
    fraction: float  # of the score earned, 0..1
    bank_days: int  # late days taken from the bank
    explain: str


def _fmt(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()


def student_deadline(course: Course, deadline: Deadline, student: str) -> StudentDeadline:
    """The due and lock dates that hold for one student: standing accommodations first, then an extension
    for this assignment (which moves the lock date with it, and past it when it has to)."""
    due, lock, why = deadline.due, deadline.lock, []
    for acc in (a for a in course.accommodations if a.student == student):
        shift = dt.timedelta(days=acc.extra_days)
        if acc.multiplier != 1.0 and deadline.opens is not None:
            shift += (due - deadline.opens) * (acc.multiplier - 1.0)
            why.append(f"accommodation: window x{acc.multiplier:g}")
        else:
            why.append(f"accommodation: +{acc.extra_days:g} day{'s' * (acc.extra_days != 1)}")
        due, lock = due + shift, lock + shift if lock else None
    for ext in (e for e in course.extensions if e.student == student and e.assignment == deadline.assignment):
        new_due = ext.due if ext.due is not None else due + dt.timedelta(days=ext.days)
        moved = new_due - due
        due = new_due
        if ext.lock is not None:
            lock = ext.lock
        elif lock is not None:
            lock = max(lock + max(moved, dt.timedelta(0)), due)
        why.append(f"extension to {_fmt(due)}{f' ({ext.reason})' if ext.reason else ''}")
    return StudentDeadline(due, lock, tuple(why))


def penalty(policy: LatePolicy, grace: dt.timedelta, own: StudentDeadline, submitted: dt.datetime | None,
            bank_left: int = 0, handed_in: bool = True) -> Penalty:
    """The penalty of one submission (``handed_in=False``: nothing was; ``submitted=None``: when is unknown)."""
    moved = f" ({'; '.join(own.why)})" if own.why else ""
    due_text = f"due {_fmt(own.due)}{moved}"
    if not handed_in:
        return Penalty("missing", 1.0, 0, f"missing: no submission; counts as 0 ({due_text})")
    if submitted is None:
        return Penalty("time_unknown", 0.0, 0, f"no submission time known, so no late penalty ({due_text}); "
                       "give the times (Gradescope metadata, a times CSV) when ingesting")
    if own.lock is not None and submitted > own.lock:
        return Penalty("after_lock", 1.0, 0, f"handed in {_fmt(submitted)}, after the lock date {_fmt(own.lock)}: "
                       "not accepted, counts as 0")
    late = submitted - own.due
    if late <= grace or policy.kind == "none":
        state = "on_time" if late <= grace else "late"
        in_grace = dt.timedelta(0) < late <= grace
        within = f" (within the {grace.total_seconds() / 60:g}-minute grace period)" if in_grace else ""
        tail = "; this assignment has no late penalty" if state == "late" else ""
        return Penalty(state, 0.0, 0, f"on time{within}: {due_text}{tail}" if state == "on_time"
                       else f"late by {_duration(late)}: {due_text}{tail}")
    if policy.kind == "per_hour":
        units, unit = math.ceil(late / HOUR), "hour"
    else:
        units, unit = math.ceil(late / DAY), "day"
    taken = min(units, bank_left) if policy.kind == "bank" else 0
    charged = units - taken
    percent = min(policy.percent * charged, policy.cap)
    parts = [f"late by {_duration(late)} ({units} started {unit}{'s' * (units != 1)}); {due_text}"]
    if policy.kind == "bank":
        parts.append(f"{taken} late day{'s' * (taken != 1)} from the bank ({bank_left - taken} left)")
    if charged:
        capped = " (the cap)" if percent == policy.cap and policy.percent * charged > policy.cap else ""
        parts.append(f"{policy.percent:g}% x {charged} {unit}{'s' * (charged != 1)} = {percent:g}%{capped} "
                     "off the score earned")
    else:
        parts.append("no points off")
    return Penalty("late", percent / 100.0, taken, "; ".join(parts))


def _duration(delta: dt.timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return " ".join(f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "min")) if n) or "0min"


def bank_size(course: Course) -> int:
    """One bank per student for the term: the largest bank_days of the bank policies in use."""
    policies = [course.late_policy] + [d.late_policy for d in course.deadlines if d.late_policy]
    return max((p.bank_days for p in policies if p.kind == "bank"), default=0)


def term_penalties(course: Course, student: str, submitted: dict[str, dt.datetime | None]) -> dict[str, Penalty]:
    """Every assignment's penalty for one student, spending the late-day bank in due-date order.
    ``submitted`` maps an assignment to its submission time (None: unknown); one left out was not handed in."""
    left = bank_size(course)
    out = {}
    for deadline in course.deadlines:  # sorted by due date at load time
        policy = course.policy_for(deadline.assignment)
        own = student_deadline(course, deadline, student)
        p = penalty(policy, course.grace, own, submitted.get(deadline.assignment), left,
                    handed_in=deadline.assignment in submitted)
        left -= p.bank_days
        out[deadline.assignment] = p
    return out
