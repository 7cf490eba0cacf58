"""Grading: submission in, typed Report out. Never imports `grader.authoring`."""
