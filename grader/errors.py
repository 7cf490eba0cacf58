"""The kit's typed exceptions. Library code raises these; only `cli.py` and `tasks.py`
turn them into a message and an exit status (2 for usage, 1 for everything else)."""
from __future__ import annotations


class LrkitError(Exception):
    """Base of every error the kit reports to a person as one message (no traceback)."""

    exit_code = 1


class UsageError(LrkitError):
    """A command line that cannot work: a missing path, a wrong folder. Nothing was written."""

    exit_code = 2


class BundleError(LrkitError):
    """The autograder bundle is missing, damaged, not a bundle, or holds an instructor error."""

    exit_code = 2


class ReleaseError(LrkitError):
    """`tasks.py release` refused to write a zip (a leak, a missing tree, a failed check)."""
