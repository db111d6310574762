"""Train and evaluate several seeds of two training sets side by side, and apply the rule
of `2026-12-01-gpu-seeds.md` to the results.

    python experiments/seeds.py --arm main=DATA_A/train.jsonl \
        --arm decoys=DATA_B/train.jsonl --validation DATA_A/validation.jsonl \
        --test DATA_A/test.jsonl --seeds 2 3 4 5 6 7 --parallel 12 --out RESULTS

Each run is `bertforge pii train` then `bertforge pii evaluate` on the validation and
test splits and the three hand-written sets in bench/, all through the command line, on
--device (default cuda). Results are written to RESULTS/results.json after every run,
so a run cut short still leaves what finished. --ship ARM packs that arm's run with the
highest validation F1 as RESULTS/ship.tar.N (15 MiB pieces: `cat ship.tar.* | tar x`).

--rule data applies the rule of `2026-12-01-soups.md` to the arms --baseline and
--candidate. (The soups of that note were made by code taken out after it; commit
6864d48 has the script as it ran.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDWRITTEN = {"handwritten": ROOT / "bench" / "pii_handwritten.txt",
               "heldout": ROOT / "bench" / "pii_heldout.txt",
               "fresh": ROOT / "bench" / "pii_fresh.txt"}
BF = [sys.executable, "-m", "bertforge"]
lock = threading.Lock()


def run(cmd: list[str], log: Path) -> None:
    with log.open("a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        done = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[:4])} … exited {done.returncode}; see {log}")


def one(arm: str, train: str, seed: int, args, results: dict) -> None:
    name = f"{arm}-s{seed}"
    work = Path(args.work) / name
    work.mkdir(parents=True, exist_ok=True)
    log = work / "log.txt"
    started = time.time()
    run(BF + ["pii", "train", train, "--out", str(work / "model"), "--validation",
              args.validation, "--half", "--epochs", "2", "--seed", str(seed), "--device",
              args.device, "--quiet"], log)
    minutes = (time.time() - started) / 60
    scores = evaluate_all(work, args, log)
    with lock:
        results["runs"][name] = {"arm": arm, "seed": seed, "minutes": round(minutes, 2)} | scores
        save(results, args)
    print(f"{name}: {json.dumps(scores | {'test_groups': None})} ({minutes:.1f} min)", flush=True)


def evaluate_all(work: Path, args, log: Path) -> dict:
    sets = {"validation": args.validation, "test": args.test} | {k: str(v) for k, v in HANDWRITTEN.items()}
    scores = {}
    for set_name, path in sets.items():
        out = work / f"eval-{set_name}"
        run(BF + ["pii", "evaluate", path, "--model", str(work / "model"), "--out", str(out),
                  "--device", args.device, "--precision", args.precision], log)
        hybrid = json.loads((out / "scores.json").read_text())["scores"]["hybrid"]
        scores[set_name] = round(hybrid["micro"]["f1"], 4)
        if set_name == "test":
            scores["test_groups"] = {g: round(s["f1"], 4) for g, s in hybrid.items()}
    return scores


def save(results: dict, args) -> None:
    results["decision"] = (decide_data if args.rule == "data" else decide)(results, args)
    path = Path(args.out) / "results.json"
    path.write_text(json.dumps(results, indent=1))


def mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4)


def arm_means(results: dict, arm: str, seeds: list[int] | None = None) -> dict | None:
    """The mean scores of an arm's runs (only those with `seeds`, if given)."""
    chosen = [r for r in results["runs"].values()
              if r["arm"] == arm and (seeds is None or r["seed"] in seeds)]
    if not chosen:
        return None
    means = {k: mean([r[k] for r in chosen]) for k in ("validation", "test", *HANDWRITTEN)}
    means["test_ACCOUNT"] = mean([r["test_groups"]["ACCOUNT"] for r in chosen])
    means["handwritten_mean"] = mean([means[k] for k in HANDWRITTEN])
    return means | {"runs": len(chosen)}


def decide(results: dict, args) -> dict:
    """The rule of 2026-12-01-gpu-seeds.md, over the seeds finished in both arms."""
    runs = results["runs"]
    base, new = args.baseline, args.candidate
    seeds = sorted(s for s in args.seeds
                   if f"{base}-s{s}" in runs and f"{new}-s{s}" in runs)
    means = {arm: m for arm in (base, new) if (m := arm_means(results, arm, seeds))}
    out = {"seeds_in_both": seeds, "means": means}
    if len(seeds) < 4:
        return out | {"adopt": None, "why": "fewer than 4 seeds finished in both arms"}
    b, n = means[base], means[new]
    checks = {
        "1 validation >= baseline - 0.002": n["validation"] >= b["validation"] - 0.002,
        **{f"2 {k} >= baseline - 0.02": n[k] >= b[k] - 0.02 for k in HANDWRITTEN},
        "3 test ACCOUNT >= 0.85": n["test_ACCOUNT"] >= 0.85,
        "3 test ACCOUNT >= baseline": n["test_ACCOUNT"] >= b["test_ACCOUNT"],
    }
    return out | {"checks": checks, "adopt": all(checks.values())}


def decide_data(results: dict, args) -> dict:
    """The data-size rule of 2026-12-01-soups.md: --candidate against --baseline."""
    means = {arm: arm_means(results, arm) for arm in results["arms"]}
    out: dict = {"means": means}
    b, n = means.get(args.baseline), means.get(args.candidate)
    if b and n:
        checks = {"1 validation >= baseline - 0.002": n["validation"] >= b["validation"] - 0.002,
                  **{f"2 {k} >= baseline - 0.02": n[k] >= b[k] - 0.02 for k in HANDWRITTEN},
                  "3 three-set mean >= baseline + 0.01":
                      n["handwritten_mean"] >= b["handwritten_mean"] + 0.01}
        out["recipe"] = {"checks": checks, "works": all(checks.values())}
    return out


def ship(results: dict, args) -> None:
    runs = [r for r in results["runs"].values() if r["arm"] == args.ship]
    if not runs:
        return
    best = max(runs, key=lambda r: (r["validation"], -r["seed"]))
    name, label = f"{args.ship}-s{best['seed']}", f"validation {best['validation']}"
    model = Path(args.work) / name / "model"
    tar = Path(args.work) / "ship.tar"
    with tarfile.open(tar, "w") as t:
        t.add(model, arcname=name)
    data, piece = tar.read_bytes(), 15 * 2**20
    for i in range(0, len(data), piece):
        (Path(args.out) / f"ship.tar.{i // piece}").write_bytes(data[i:i + piece])
    results["shipped"] = name
    save(results, args)
    print(f"packed {name} ({label})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--arm", action="append", required=True, metavar="NAME=TRAIN")
    p.add_argument("--validation", required=True)
    p.add_argument("--test", required=True)
    p.add_argument("--seeds", type=int, nargs="+", required=True)
    p.add_argument("--parallel", type=int, default=4)
    p.add_argument("--device", default="cuda")
    p.add_argument("--precision", default="fp32", help="for evaluation")
    p.add_argument("--baseline", default="main")
    p.add_argument("--candidate", default="decoys")
    p.add_argument("--ship", metavar="ARM", help="pack the arm's best run on validation")
    p.add_argument("--rule", choices=["generators", "data"], default="generators")
    p.add_argument("--out", required=True)
    p.add_argument("--work", default="/tmp/seeds")
    args = p.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    arms = dict(a.split("=", 1) for a in args.arm)
    results = {"arms": arms, "seeds": args.seeds, "device": args.device,
               "eval_precision": args.precision, "runs": {}}
    jobs = [(arm, train, seed) for seed in args.seeds for arm, train in arms.items()]
    with ThreadPoolExecutor(args.parallel) as pool:
        futures = [pool.submit(one, *job, args, results) for job in jobs]
        for f in futures:
            try:
                f.result()
            except Exception as error:  # one failed run does not stop the others
                print(f"failed: {error}", flush=True)
    save(results, args)
    if args.ship:
        ship(results, args)
    print(json.dumps(results["decision"], indent=1))


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
