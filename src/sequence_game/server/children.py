"""Helper processes (bot thinking, analyses) that never outlive the server nor slow its moves.

A pool process waits on its parent's queue; if the server is killed (SIGKILL, an out-of-memory
kill) nothing tells it to stop, and it used to stay behind. Here each such process asks Linux to
send it SIGTERM when its parent dies (``prctl(PR_SET_PDEATHSIG)``), and a watchdog thread checks
the parent's pid every second as well (other systems, and the moment before ``prctl`` took
effect). Pool processes also lower their own priority (``os.nice``), so the event loop, which
answers every room's moves, is served first by the kernel when the cores are busy: search bots
then use the time the loop leaves, and another room's moves wait less behind them.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""``prctl`` option (``<linux/prctl.h>``): the signal this process gets when its parent dies."""
BOT_NICE = 10
"""How much lower bot thinking runs than the server (``nice`` steps; 19 is the lowest)."""


def leave_with_parent(parent: int | None = None, nice: int = 0) -> None:
    """Call first thing in a child process: exit when ``parent`` (default: the parent now) dies;
    lower this process's priority by ``nice``."""
    parent = os.getppid() if parent is None else parent
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)
