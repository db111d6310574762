"""Dynamic batching: requests that arrive together go through the model together.

One worker thread owns the redactor. Each request puts its texts on a queue and waits
on a future. The worker takes the oldest request, then gathers whatever else arrives
within `max_wait` seconds (or until the batch holds `max_chars` characters), runs
them as one `detect_batch` call (windows of all texts batched by length, as the batch
path does), and hands each request its own spans. A request alone waits at most
`max_wait`; under load the model sees batches as large as the batch path's.

Requests with another threshold are not mixed into a batch (the threshold decides
which words the decoder keeps); they wait for the next one.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Callable, Sequence


@dataclass
class _Job:
    texts: list[str]
    threshold: float | None
    future: Future = field(default_factory=Future)


class Batcher:
    def __init__(self, redactor, max_wait: float = 0.005, max_chars: int = 200_000,
                 on_batch: Callable[[int, float], None] | None = None):
        self.redactor, self.max_wait, self.max_chars = redactor, max_wait, max_chars
        self.on_batch = on_batch or (lambda documents, seconds: None)
        self.calls = 0
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._held: _Job | None = None  # taken off the queue for a batch it could not join
        self._thread = threading.Thread(target=self._work, name="bertforge-batcher", daemon=True)
        self._thread.start()

    def submit(self, texts: Sequence[str], threshold: float | None = None) -> Future:
        """A future for the spans of each text."""
        job = _Job(list(texts), threshold)
        self._queue.put(job)
        return job.future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _next(self, timeout: float | None) -> _Job | None:
        if self._held is not None:
            job, self._held = self._held, None
            return job
        return self._queue.get(timeout=timeout) if timeout is None or timeout > 0 else \
            self._queue.get_nowait()

    def _work(self) -> None:
        while True:
            first = self._next(None)
            if first is None:
                return
            jobs, size = [first], sum(map(len, first.texts))
            deadline = time.monotonic() + self.max_wait
            while size < self.max_chars:
                try:
                    job = self._next(deadline - time.monotonic())
                except queue.Empty:
                    break
                if job is None:
                    self._queue.put(None)  # close after this batch
                    break
                if job.threshold != first.threshold:
                    self._held = job
                    break
                jobs.append(job)
                size += sum(map(len, job.texts))
            self._run(jobs)

    def _run(self, jobs: list[_Job]) -> None:
        # a request that gave up (timed out, client gone) cancelled its future: skip it;
        # the others can no longer be cancelled, so their answers always land
        jobs = [job for job in jobs if job.future.set_running_or_notify_cancel()]
        if not jobs:
            return
        redactor = self.redactor
        if jobs[0].threshold is not None:
            redactor = copy.copy(redactor)
            redactor.threshold = jobs[0].threshold
        texts = [t for job in jobs for t in job.texts]
        started = time.perf_counter()
        try:
            found = redactor.detect_batch(texts)
        except BaseException as error:  # each waiting request hears of it
            for job in jobs:
                job.future.set_exception(error)
            return
        self.calls += 1
        self.on_batch(len(texts), time.perf_counter() - started)
        at = 0
        for job in jobs:
            job.future.set_result(found[at:at + len(job.texts)])
            at += len(job.texts)
