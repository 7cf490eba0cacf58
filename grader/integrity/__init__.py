"""Integrity for a class: code similarity, shared wrong outputs, per-student variants (evidence for staff; never
a grade)."""
