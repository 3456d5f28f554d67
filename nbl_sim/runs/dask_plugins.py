"""Dask worker plugins of the local cluster :class:`~nbl_sim.runs.execution.DaskExecutor` starts
(a module of its own: it imports ``distributed``, which only a Dask run loads)."""

from __future__ import annotations

import logging

from distributed import WorkerPlugin

__all__ = ["QuietWorkerLogs"]


class QuietWorkerLogs(WorkerPlugin):
    """The worker's ``distributed`` logger at CRITICAL.

    A worker of a local cluster writes to the terminal it shares with the command, and one
    whose scheduler has gone — the run interrupted, the command already exiting — logs its
    failed heartbeat with a traceback at ERROR (distributed's ``Worker.heartbeat``; seen under
    load after two Ctrl-C). A task's error reaches the command through its future
    (:func:`nbl_sim.runs.execution._guarded`), not through the worker's log.
    """

    idempotent = True

    def setup(self, worker) -> None:  # noqa: ARG002 - the plugin protocol's signature
        """Quiet the worker's ``distributed`` logger (on every worker, restarted ones too).

        Parameters
        ----------
        worker : distributed.Worker
            The worker the plugin is set up on (not used).
        """
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
