"""Guards for fuzz tests: a time limit (``alarm``) and a memory cap, so a hang or a runaway fails the
test with a reason instead of stopping the suite. Linux only (SIGALRM, /proc)."""

from __future__ import annotations

import resource
import signal
from contextlib import contextmanager
from typing import Iterator


class Stuck(BaseException):
    """Raised by the alarm: the work ran past its time."""


@contextmanager
def memory_cap(extra_gb: float = 2.0) -> Iterator[None]:
    """Cap this process's address space at its present size plus ``extra_gb``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/status") as fh:
            size_kb = next(int(line.split()[1]) for line in fh if line.startswith("VmSize:"))
    except (OSError, StopIteration):
        yield
        return
    cap = size_kb * 1024 + int(extra_gb * 1024 ** 3)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def alarm(seconds: float) -> Iterator[None]:
    """Raise ``Stuck`` in this process if the block runs for more than ``seconds``."""
    def ring(_sig, _frame):
        raise Stuck(f"still running after {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
