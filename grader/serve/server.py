"""`grade serve OUT_DIR`: find the assignment's solution tree, build the app, bind 127.0.0.1, print the URL
with its token as the first line of stdout, and serve (threads: several graders at once) until stopped.

The solution tree (questions, model answers, rubric entries) comes from `--autograder ZIP`, else from
`solutions/<assignment>/` in the working folder or in the kit's own checkout; without one the pages still
grade, with no model answers.
"""
from __future__ import annotations

import errno
import logging
import signal
import socket
import tempfile
from pathlib import Path
from typing import TextIO

from werkzeug.serving import BaseWSGIServer, make_server

from grader.bundle import open_bundle
from grader.errors import UsageError
from grader.serve import auth
from grader.serve.app import create_app
from grader.serve.cohort import read_reports

log = logging.getLogger(__name__)
DEFAULT_PORT = 8750  # then the next ones, as Jupyter does, when it is taken
PORTS_TRIED = 20
KIT_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def find_solution(assignment: str, autograder: Path | None, scratch: Path) -> Path | None:
    if autograder is not None:
        return open_bundle(autograder, scratch).solution
    for root in (Path.cwd(), KIT_ROOT):
        candidate = root / "solutions" / assignment
        if (candidate / "rubric.yaml").is_file():
            return candidate
    log.warning("no solution tree for %s (solutions/%s/ here or in the kit): no model answers or rubric "
                "entries from the assignment; pass --autograder dist/%s-autograder.zip", assignment, assignment,
                assignment)
    return None


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``host``: ``port`` exactly (0: any free one), or by default the first free one
    from DEFAULT_PORT on."""
    tries = [port] if port is not None else [*range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED), 0]
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for n in tries:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, n))
            sock.listen(64)
            return sock
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE or port is not None:
                raise UsageError(f"cannot listen on {host}:{n} ({exc.strerror}); try another --port") from None
    raise UsageError(f"no free port on {host}")  # port 0 never is in use


def url_of(server: BaseWSGIServer, host: str, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{server.port}/?token={token}"


def _stop(signum, frame):
    raise KeyboardInterrupt


def serve(out_dir: Path, *, host: str = "127.0.0.1", port: int | None = None, autograder: Path | None = None,
          anonymous: bool = False, out: TextIO) -> int:
    token = auth.new_token()
    with tempfile.TemporaryDirectory(prefix="lrkit-serve-") as scratch:
        assignment = next(iter(read_reports(out_dir).values())).assignment
        app = create_app(out_dir, token, find_solution(assignment, autograder, Path(scratch)), anonymous=anonymous)
        sock = bind(host, port)
        try:
            server = make_server(host, sock.getsockname()[1], app, threaded=True, fd=sock.fileno())
        finally:
            sock.close()  # the server holds its own copy
        print(url_of(server, host, token), file=out, flush=True)
        if host not in LOOPBACK:
            log.warning("listening on %s, not only this machine: whoever reaches it with the token can grade, and "
                        "plain HTTP carries the token in clear (an SSH tunnel to 127.0.0.1 is safer)", host)
        log.info("grading %s in the browser (grades in %s); Ctrl-C stops", out_dir, out_dir / "handgrading.sqlite")
        # Ctrl-C or a kill stops it, even where it was started in the background with SIGINT ignored (a script's
        # `grade serve ... &`: Python installs no Ctrl-C handler where the signal was ignored at its start)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, _stop)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            log.info("stopped")
        finally:
            server.server_close()
    return 0
