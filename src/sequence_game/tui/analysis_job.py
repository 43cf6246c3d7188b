"""The post-game analysis of a record in a child process, for an interface that must stay live.

Why a process and not a thread: the analysis is CPU-bound for a few seconds (the evaluator judges
every legal play over every draw, ``docs/analysis.md``), and in a thread of the interface's process
it would hold the interpreter lock for long stretches (measured with the sampled rollouts it
replaced, ``experiments/tui_analysis_latency.py``: keys waited up to a second). A child process leaves the
interface its own interpreter, and stopping it is immediate (the process is ended), where a thread
could only stop after the move it is judging. The child is started with ``spawn``, which is safe
beside the interface's threads. The interface reads the child's news without ever waiting:
:meth:`AnalysisJob.poll` only reads what is already there.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

from ..analysis import AnalysisError, Budget, GameAnalysis, analyze_record
from ..analysis.threads import one_thread_children
from ..i18n import _

#: How long :meth:`AnalysisJob.stop` waits for the ended child to be gone, in seconds.
STOP_WAIT = 2.0


def _analyse_in_child(record: dict[str, Any], budget: Budget, seed: int, send: Connection) -> None:
    """The child's work: the progress after every move, then the analysis or the reason it failed
    (``seed`` has no effect since the evaluator replaced the sampled rollouts).

    The child shares the interface's terminal, so it prints nothing there: what it has to say goes
    through the pipe, a failure included."""
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the child's whole life)

    def progress(done: int, total: int) -> None:
        send.send(("progress", done, total))

    try:
        analysis = analyze_record(record, budget, seed=seed, progress=progress)
    except AnalysisError as exc:
        send.send(("error", str(exc)))
    except Exception as exc:  # noqa: BLE001 (a bug: say so in the interface, not over its screen)
        send.send(("error", f"internal error: {type(exc).__name__}: {exc}"))
    else:
        send.send(("done", analysis))
    finally:
        send.close()


@contextlib.contextmanager
def _real_stderr() -> Iterator[None]:
    """Starting the first ``spawn`` child also starts multiprocessing's resource tracker, which
    inherits ``sys.stderr``'s file descriptor; a running Textual app captures ``sys.stderr`` with
    an object whose descriptor is -1, which the start refuses (``bad value(s) in fds_to_keep``).
    So the start sees the process's real standard error for that moment."""
    if sys.__stderr__ is None:
        yield
        return
    with contextlib.redirect_stderr(sys.__stderr__):
        yield


class AnalysisJob:
    """One analysis running in a child process: ``progress`` (moves done, moves in all) and, once
    finished, ``result`` (the analysis, or a sentence saying why there is none) follow :meth:`poll`."""

    def __init__(self, record: dict[str, Any], budget: Budget, seed: int = 0) -> None:
        context = multiprocessing.get_context("spawn")
        self._receive, send = context.Pipe(duplex=False)
        self.process = context.Process(
            target=_analyse_in_child,
            args=(record, budget, seed, send),
            name="sequence-analysis",
            daemon=True,  # never outlives the interface
        )
        with _real_stderr(), one_thread_children():
            self.process.start()
        send.close()  # the child holds the only sending end: its exit reads as the end of the pipe
        self.progress: tuple[int, int] = (0, 0)
        self.result: GameAnalysis | str | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    def poll(self) -> bool:
        """Read whatever the child has sent so far, without waiting; True once it is finished."""
        if self.result is not None:
            return True
        try:
            while self._receive.poll():
                message = self._receive.recv()
                if message[0] == "progress":
                    self.progress = (message[1], message[2])
                else:
                    self.result = message[1]
                    break
        except (EOFError, OSError):
            self.process.join(STOP_WAIT)
            self.result = _("the analysis stopped unexpectedly (exit status {status})").format(
                status=self.process.exitcode
            )
        if self.result is not None:
            self._close()
        return self.result is not None

    def stop(self) -> None:
        """End the child at once (its work is lost)."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_WAIT)
        self._close()

    def _close(self) -> None:
        self._receive.close()
