"""A deterministic measure and limit of work: Python function calls, counted by a trace function.

Wall-clock and CPU time depend on the machine and on its load; a result that depends on them
(a sympy call cut short after 5 s, then cached) is not reproducible. The number of Python
function calls a computation makes depends only on the computation (and the library versions):
:func:`count_calls` measures it, :func:`call_limited` stops a computation after a given number
of calls. The count is taken by :func:`sys.settrace` with a global trace function that only
counts (no line tracing), in the calling thread; a trace function already installed (a
debugger, coverage) keeps being called. Overhead: about 2x on sympy code.

A loop that calls no Python function is not counted (sympy's long computations are recursive
and call functions throughout). The limit is raised as a :class:`BaseException`, so the
computation's own ``except Exception`` does not eat it; it is held back while the call runs in
code whose exceptions Python swallows — anything the garbage collector runs (gc callbacks, and
the finalizers of a collection: ``__del__``, weak-reference callbacks, the ``finally`` blocks of
generators it closes; seen by a gc callback of this module that marks a collection), a
``__del__`` or weak-reference callback run outside a collection — and raised at the next call
outside. Nor is it raised in a generator's or coroutine's frame, whose "call" is also its
resumption by ``close()`` when its last reference is dropped (Python would swallow it and unset
the trace function, leaving the rest of the block unlimited); it is raised at the next call of
a plain function. Should a limit still be swallowed, or be passed only in such frames with no
plain call after, the block ends with :class:`WorkLimitExceeded` all the same when it returns:
the outcome is the count's, only the work past it was not cut.

Example
-------
>>> value, calls = count_calls(lambda: sum(abs(k) for k in range(10)))
>>> value, calls > 0
(45, True)
>>> call_limited(lambda: sorted(str(k) for k in range(1000)), 10)
(None, True)
>>> with counting() as work:
...     _ = [str(k) for k in range(3)]
>>> work.calls >= 1
True
"""

from __future__ import annotations

import _weakrefset
import gc
import inspect
import sys
import weakref
from contextlib import contextmanager

__all__ = ["WorkLimitExceeded", "Calls", "counting", "count_calls", "call_limited"]


class WorkLimitExceeded(BaseException):
    """Raised inside a computation that made more calls than :func:`call_limited` allows
    (BaseException: a library's ``except Exception`` must not eat it)."""


_WEAKREF_FILES = frozenset({weakref.__file__, _weakrefset.__file__})


def _in_swallowing_code(frame) -> bool:
    """Whether ``frame`` runs (anywhere up its stack) inside a ``__del__``, a gc callback or
    the standard library's weak-reference machinery: Python calls those from C and ignores what
    they raise ("Exception ignored in …"), so a limit raised there would be lost."""
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code in callbacks or code.co_filename in _WEAKREF_FILES:
            return True
        frame = frame.f_back
    return False


class Calls:
    """The count of :func:`counting`: ``calls`` made so far, ``limit`` (None: none), and
    ``raised``: whether the limit was raised (inside the block).

    Parameters
    ----------
    limit : int, optional
        The most calls allowed (None: no limit).
    """

    def __init__(self, limit=None):
        self.calls = 0
        self.limit = limit
        self.raised = False


#: code flags of generator, coroutine and async-generator frames. Their "call" event is also
#: their resumption — by ``close()`` too, when a generator's last reference is dropped (sympy's
#: assumption system drops half-run generator expressions while a KeyError unwinds), and what
#: is raised there Python swallows ("Exception ignored in: <generator …>"). A limit passed
#: there is raised at the next call of a plain function.
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR

#: nesting depth of collections in progress (set by :func:`_mark_collection`)
_COLLECTING = [0]
_ACTIVE = [0]


def _mark_collection(phase, info):
    """A gc callback (first in ``gc.callbacks`` while a limit is counted): a collection, with
    every finalizer it runs, is code whose exceptions Python swallows."""
    _COLLECTING[0] = 1 if phase == "start" else 0


def _watch_collections(on: bool) -> None:
    if on:
        _ACTIVE[0] += 1
        if _ACTIVE[0] == 1:
            gc.callbacks.insert(0, _mark_collection)
    else:
        _ACTIVE[0] -= 1
        if _ACTIVE[0] == 0:
            while _mark_collection in gc.callbacks:
                gc.callbacks.remove(_mark_collection)
            _COLLECTING[0] = 0


@contextmanager
def counting(limit: int | None = None):
    """Count the Python function calls made in the ``with`` block (this thread); with a
    ``limit``, raise :class:`WorkLimitExceeded` inside the block at the first call past it.
    Yields a :class:`Calls`, whose ``calls`` stays readable after the block (also after an
    exception).

    Parameters
    ----------
    limit : int, optional
        The most calls allowed in the block (None: count only).

    Yields
    ------
    Calls
        The running count.
    """
    work = Calls(None if limit is None else int(limit))
    old = sys.gettrace()

    def trace(frame, event, arg):
        if event == "call":
            work.calls += 1
            if (
                work.limit is not None
                and work.calls > work.limit
                and not frame.f_code.co_flags & _RESUMABLE
                and not _COLLECTING[0]
                and not _in_swallowing_code(frame)
            ):
                work.raised = True
                raise WorkLimitExceeded
        if old is None:
            return None
        local = old(frame, event, arg)
        if event == "call" and sys.gettrace() is not trace:
            # a C tracer called as a Python function on a "call" (coverage's CTracer) puts
            # itself back as the global trace function, which would end the count at the
            # block's first call: under coverage no limit was ever reached, and a claim ran
            # other lines than without it (the coverage map of libmutation mapped the wrong
            # ones). Put this one back; the C tracer keeps tracing through it. (Whoever took
            # the slot: the count must go on to the block's end. In nested blocks the outer
            # counter, called from the inner one's, puts itself back, then the inner one.)
            sys.settrace(trace)
        return local

    if work.limit is not None:
        _watch_collections(True)
    sys.settrace(trace)
    try:
        yield work
    finally:
        sys.settrace(old)
        if work.limit is not None:
            _watch_collections(False)
    if work.raised or (work.limit is not None and work.calls > work.limit):
        # raised in code that swallowed it, or passed only where it is not raised (a
        # generator's resumption) with no plain call after: the outcome is the limit's
        raise WorkLimitExceeded


def count_calls(fn):
    """``(fn(), calls)``: the value of ``fn()`` and the number of Python function calls it
    made (see the module docstring). ``fn``'s exceptions propagate.

    Parameters
    ----------
    fn : callable
        A function of no arguments.

    Returns
    -------
    tuple
        ``(fn(), calls)``, ``calls`` an int.
    """
    with counting() as work:
        value = fn()
    return value, work.calls


def call_limited(fn, max_calls: int):
    """``(fn(), False)``, or ``(None, True)`` when ``fn`` would make more than ``max_calls``
    Python function calls (it is stopped there). ``fn``'s exceptions propagate.

    The outcome depends on the computation alone, not on the machine or its load.

    Parameters
    ----------
    fn : callable
        A function of no arguments.
    max_calls : int
        The most Python function calls it may make.

    Returns
    -------
    tuple
        ``(fn(), False)``, or ``(None, True)`` when the limit was reached.
    """
    try:
        with counting(max_calls):
            return fn(), False
    except WorkLimitExceeded:
        return None, True
