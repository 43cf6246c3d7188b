"""Post-game analysis for the page: each job in its own process, its progress polled, results kept.

Why a process per job: an analysis is a few seconds of CPU (``docs/analysis.md``: the evaluator
judges every legal play over every draw). In the event loop it would freeze every room; in a
thread it would hold the interpreter lock and slow them all. A spawned process runs it beside the server; the loop only reads its queue a few times a
second. At most ``Limits.analysis_workers`` run at once, the others wait their turn, and each
finished game is analysed once (its result is kept while the server runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import queue
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_
from .limits import Limits

log = logging.getLogger(__name__)

#: Finished analyses kept in memory (oldest dropped first).
KEEP = 64

#: Why a job failed: a stable code and the catalogue message each page words it by (docs/i18n.md).
JOB_ERRORS = {
    "bad_record": N_("this game's record cannot be analysed"),
    "crashed": N_("the analysis met an unexpected error"),
    "stopped": N_("the analysis process stopped"),
    "server_stopped": N_("the server stopped"),
    "cannot_run": N_("the analysis process could not start"),
}


def job_error(code: str, detail: str | None = None) -> dict[str, Any]:
    """A job's ``error`` as data, like a refusal: ``code``, ``msgid``, ``params`` and ``message``, the
    English text for API clients (with the exception's own words, ``detail``, where there are some)."""
    code = code if code in JOB_ERRORS else "crashed"
    msgid = JOB_ERRORS[code]
    message = msgid if detail is None else f"{msgid}: {detail}"
    return {"code": code, "msgid": msgid, "params": {}, "message": message}


def analyse_in_worker(record: dict[str, Any], budget: dict[str, Any], out: Any) -> None:
    """Runs in the job's process: analyse, sending ``progress`` after each move and then the result."""
    from ..analysis import AnalysisError, Budget, analyze_record
    from .children import BOT_NICE, leave_with_parent

    leave_with_parent(nice=BOT_NICE)  # never outlive the server, nor slow its moves

    try:
        result = analyze_record(
            record, Budget(**budget), progress=lambda done, total: out.put(("progress", done, total))
        )
        out.put(("done", result.to_json()))
    except AnalysisError as exc:
        out.put(("failed", "bad_record", str(exc)))
    except Exception as exc:  # noqa: BLE001 - the page gets a reason, never a hung bar
        out.put(("failed", "crashed", repr(exc)))


def frame_numbers(record: dict[str, Any]) -> list[int]:
    """The replay frame (``replays.replay_frames``) showing each entry of the record's actions:
    frame 0 is the deal, then one per action or penalty; a reshuffle shows in its action's frame."""
    frames, frame = [], 0
    for entry in record.get("actions", []):
        if "reshuffle" not in entry:
            frame += 1
        frames.append(frame)
    return frames


@dataclass
class Job:
    status: str = "queued"
    """``queued``, ``running``, ``done`` or ``failed``."""
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    """Why it failed, as data (:func:`job_error`)."""
    frames: list[int] = field(default_factory=list)
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    process: Any = field(default=None, repr=False)

    def public(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "result": self.result,
            "error": self.error,
            "frames": self.frames,
        }


class AnalysisJobs:
    """Every analysis of this server, keyed by (room code, game number)."""

    def __init__(self, limits: Limits) -> None:
        self.budget = {
            "seconds": limits.analysis_seconds,
            "total": limits.analysis_total,
            "samples": limits.analysis_samples,
        }
        self.workers = max(1, limits.analysis_workers)
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self._slots: asyncio.Semaphore | None = None

    def get(self, key: tuple[str, int]) -> Job | None:
        return self.jobs.get(key)

    def start(self, key: tuple[str, int], record: dict[str, Any]) -> Job:
        """The job for ``key``: the one already queued, running or done, or a new one."""
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        job = self.jobs[key] = Job(frames=frame_numbers(record), total=len(record.get("actions", [])))
        job.task = asyncio.create_task(self._run(job, record))
        while len(self.jobs) > KEEP:
            old_key, old = next(iter(self.jobs.items()))
            if old.status in ("queued", "running"):
                break
            del self.jobs[old_key]
        return job

    async def _run(self, job: Job, record: dict[str, Any]) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        from ..analysis.threads import one_thread_children  # here: the server starts without NumPy

        async with self._slots:
            ctx = multiprocessing.get_context("spawn")  # a fresh interpreter, not a fork of the loop
            out = ctx.Queue()
            proc = job.process = ctx.Process(
                target=analyse_in_worker, args=(record, self.budget, out), daemon=True
            )
            try:
                with one_thread_children():  # the evaluator's small products: one BLAS thread
                    proc.start()
                job.status = "running"
                while job.status == "running":
                    try:
                        msg = out.get_nowait()
                    except queue.Empty:
                        if not proc.is_alive():
                            with contextlib.suppress(queue.Empty):
                                msg = out.get_nowait()
                                self._take(job, msg)
                                continue
                            job.status, job.error = "failed", job_error("stopped")
                            break
                        await asyncio.sleep(0.1)
                        continue
                    self._take(job, msg)
            except asyncio.CancelledError:
                job.status, job.error = "failed", job_error("server_stopped")
                raise
            except Exception as exc:  # a pool that cannot start fails this job only
                log.exception("analysis failed")
                job.status, job.error = "failed", job_error("cannot_run", repr(exc))
            finally:
                if proc.is_alive() and job.status != "done":
                    proc.kill()
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(proc.join, 5)  # reap it; the wait is off the loop
                job.process = None

    @staticmethod
    def _take(job: Job, msg: tuple[Any, ...]) -> None:
        if msg[0] == "progress":
            job.done, job.total = int(msg[1]), int(msg[2])
        elif msg[0] == "done":
            job.result, job.status, job.done = msg[1], "done", job.total
        else:
            job.status, job.error = "failed", job_error(str(msg[1]), str(msg[2]) if len(msg) > 2 else None)

    async def close(self) -> None:
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for job in self.jobs.values():
            if job.process is not None and job.process.is_alive():
                job.process.kill()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
