"""A load test of `bertforge serve` on loopback, against the batch path on the same machine.

Starts the server (127.0.0.1, a free port), then runs --clients concurrent clients for
--seconds (and at most --max-requests requests in all), each posting one document of
200-2,000 characters to /redact at a time. Prints errors, p50/p95/p99 latency,
documents/s, the same documents through `Redactor.detect_batch` in one process (the
batch path, measured before and after the load), the ratio, and the server's resident
memory at each quarter of the run and at its peak. Everything stops by itself.

    pip install -e '.[test]'
    python bench/serve_load.py [--clients 50] [--seconds 60] [--precision auto]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

import httpx

from bertforge.pii import Redactor
from bertforge.pii.synth import generate


def documents(n: int, seed: int = 3) -> list[str]:
    """Test-split documents cut to 200-2,000 characters at a line break."""
    rng, out = random.Random(seed), []
    for row in generate(n * 2, seed=seed, split="test"):
        text = row["generated_text"]
        limit = rng.randint(200, 2000)
        if len(text) > limit:
            cut = text.rfind("\n", 0, limit)
            text = text[:cut if cut >= 200 else limit]
        if len(text) >= 200:
            out.append(text)
        if len(out) == n:
            break
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-requests", type=int, default=20_000)
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--model")
    args = parser.parse_args()
    docs = documents(400)

    batch = Redactor.load(args.model, precision=args.precision)
    batch.detect_batch(docs[:16])  # warm-up

    def batch_path() -> float:
        """documents/s through detect_batch, 64 documents a call"""
        started = time.perf_counter()
        for k in range(0, len(docs), 64):
            batch.detect_batch(docs[k:k + 64])
        return len(docs) / (time.perf_counter() - started)

    # measured before the load and again after it (the server stopped): a shared
    # machine's speed drifts over minutes, and the ratio is against the mean of the two
    batch_rates = [batch_path()]

    port = free_port()
    command = [sys.executable, "-m", "bertforge", "serve", "--port", str(port),
               "--precision", args.precision] + (["--model", args.model] if args.model else [])
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit("the server did not start")
            time.sleep(0.2)

        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        budget = [args.max_requests]
        stop = time.monotonic() + args.seconds

        def client(seed: int) -> None:
            rng = random.Random(seed)
            with httpx.Client(base_url=base, timeout=60) as http:
                while time.monotonic() < stop:
                    with lock:
                        if budget[0] <= 0:
                            return
                        budget[0] -= 1
                    t = time.perf_counter()
                    try:
                        answer = http.post("/redact", json={"text": rng.choice(docs)})
                        ok = answer.status_code == 200
                    except httpx.HTTPError as error:
                        ok, answer = False, error
                    with lock:
                        if ok:
                            latencies.append(time.perf_counter() - t)
                        else:
                            errors.append(str(getattr(answer, "status_code", answer)))

        memory = []
        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        cpu_before = time.process_time()
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for quarter in (0.25, 0.5, 0.75, 1.0):
            while time.monotonic() < began + quarter * args.seconds and any(
                    t.is_alive() for t in threads):
                time.sleep(0.2)
            memory.append(rss_mb(server.pid))
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        clients_cpu = (time.process_time() - cpu_before) / elapsed  # cores the clients took
        peak = rss_mb(server.pid, "VmHWM")
        metrics = dict(line.rsplit(" ", 1) for line in httpx.get(f"{base}/metrics").text
                       .splitlines() if line.startswith("bertforge_batch_documents_"))
        per_batch = float(metrics["bertforge_batch_documents_sum"]) / max(
            1.0, float(metrics["bertforge_batch_documents_count"]))
    finally:
        server.terminate()
        server.wait(timeout=30)
    batch_rates.append(batch_path())
    batch_rate = statistics.mean(batch_rates)

    served = len(latencies) / elapsed
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"{args.clients} clients for {elapsed:.0f} s, documents of 200-2,000 characters, "
          f"precision {args.precision}, {os.cpu_count()} cores ({cpu})\n")
    print(f"requests answered      {len(latencies):,}")
    print(f"errors                 {len(errors):,}" + (f" ({', '.join(sorted(set(errors)))})"
                                                       if errors else ""))
    print(f"latency p50/p95/p99    {q[49] * 1000:.0f} / {q[94] * 1000:.0f} / "
          f"{q[98] * 1000:.0f} ms")
    print(f"service documents/s    {served:.1f}")
    print(f"batch path documents/s {batch_rate:.1f} (before {batch_rates[0]:.1f}, after "
          f"{batch_rates[1]:.1f})")
    print(f"service / batch path   {served / batch_rate:.2f}")
    print(f"documents a model call {per_batch:.1f} on average")
    print(f"cores the clients used {clients_cpu:.2f} of {os.cpu_count()} (the server had the rest)")
    print(f"server RSS by quarter  {' / '.join(f'{m:.0f}' for m in memory)} MB; peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
