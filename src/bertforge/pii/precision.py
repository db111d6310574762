"""The redactor's precision on this machine, chosen by measurement.

Which path runs the model fastest depends on the CPU, and a feature flag does not say
which: bf16 wins where the CPU has AMX, int8 where it has AVX-512 with bf16 but no AMX
(AMD Zen 4), fp32 or int8 where it has neither. So `Redactor(precision="auto")` on a CPU
times each candidate (`candidates`) on the windows of a fixed calibration text, and
keeps the fastest whose spans on that text are exactly fp32's (a path that changes what
is found on it is never chosen). The choice is measured once and cached per CPU, kernel
limits, thread count, library versions and model (`cache_path`), so later runs start at
once; `bertforge doctor` prints it and why, and `BERTFORGE_PRECISION` pins one.

A path that loses quality is held to a budget: the benchmark (`bench/redact_speed.py`)
prints each precision's F1 beside fp32's on the same documents, and docs/redactor.md
states the budget (0.005 of hybrid micro F1 on the generator's test split) and what each
path measured. The calibration text is the guard at run time. On a GPU "auto" keeps its
meaning (bf16 where the GPU has it, else fp16): nothing to measure there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from .. import __version__
from ..errors import BertforgeError
from ..files import write_text
from .. import training

log = logging.getLogger(__name__)

ROUNDS = 5            # timed passes of each candidate, taken in turn; the best counts
KEEP = 64             # cache entries kept (one per machine setting and model)
PINNED = "BERTFORGE_PRECISION"
KERNEL_LIMITS = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS",
                 "FBGEMM_ENABLE_INSTRUCTIONS")

# Short documents of the kinds the redactor reads, written for this purpose: enough
# windows for a few forward passes of realistic length, and values of every group.
CALIBRATION = (
    "Dear Ms. Okafor,\nThank you for your application of 3 March 2024. Please wire the "
    "deposit of $2,400.00 to account 4471-220-938 at Harbor Point Credit Union, routing "
    "number 021000021, before 15 April 2024. Questions: call Daniel Reyes on (415) "
    "555-0133 or write to d.reyes@harborpoint.example.\nRegards, Loan Servicing",
    "Customer: Jonas Lindqvist\nAddress: Storgatan 14, 114 55 Stockholm, Sweden\nIBAN: "
    "SE35 5000 0000 0549 1000 0003\nCard on file: 4111 1111 1111 1111, exp 09/27\n"
    "Passport: K8823104\nNotes: the customer asked us to close the savings account opened "
    "on 12/02/2019 and move the balance to Nordic Freight AB.",
    "Agent: Hi, this is Priya from support. Can I have your member number?\nCustomer: "
    "sure, it's MBR-0048813. I moved to 22 Elm Street, Apt 4B, Springfield, IL 62704 "
    "last month.\nAgent: Thanks, Mr. Castellanos. I've updated it. Your SSN ends 6789, "
    "correct?\nCustomer: yes. My email is marco.castellanos@example.com.",
    "2024-06-01 09:14:03 INFO payment accepted payer=\"Wei Zhang\" iban=GB29NWBK601613"
    "31926819 amount=1250.00 GBP ref=INV-2024-0611 ip=203.0.113.45\n2024-06-01 09:14:07 "
    "WARN retry for api_key=sk_live_51Hx9qA2bC3dE4fG5hJ6kL7m user=ops@brightwater.example",
    "This Loan Agreement is made on 1 July 2023 between Brightwater Joinery Ltd., a "
    "company registered in England (the \"Borrower\"), and Northgate Capital LLP (the "
    "\"Lender\"). The Servicer shall deliver notices to the Borrower at 7 Quay Road, "
    "Bristol BS1 4DJ, attention Helen Marsh. Liens permitted under the Indenture are not "
    "affected.",
    "Payroll export, March: Olivia Brennan, employee 55-1042, sort code 20-45-77, account "
    "73849201, net pay £3,118.42; Tomasz Nowak, employee 55-1077, sort code 40-11-62, "
    "account 19283746, net pay £2,904.10. Approved by R. Adeyemi, Finance, 29 March 2024.",
)


@dataclass
class Choice:
    """What "auto" resolved to on this machine, and why."""
    precision: str
    seconds: dict[str, float] = field(default_factory=dict)  # best pass, by candidate
    agrees: dict[str, bool] = field(default_factory=dict)    # spans equal fp32's
    tokens: int = 0            # tokens in one pass over the calibration windows
    machine: dict = field(default_factory=dict)
    cached: bool = False
    pinned: bool = False

    def describe(self) -> list[str]:
        """Lines for a person: each candidate's speed and agreement, then the choice."""
        if self.pinned:
            return [f"precision {self.precision}: pinned by {PINNED}"]
        lines = [f"{'candidate':<10}{'tokens/s':>10}  spans as fp32's"]
        for name, seconds in self.seconds.items():
            rate = self.tokens / seconds if seconds > 0 else float("inf")
            lines.append(f"{name:<10}{rate:>10,.0f}  {'yes' if self.agrees.get(name) else 'NO'}")
        lines.append(f"chosen: {self.precision} (the fastest whose spans on the calibration "
                     f"text are fp32's){'; from the cache' if self.cached else ''}")
        return lines


def candidates(device: torch.device) -> list[str]:
    """The paths worth timing on this device's kind: fp32 always; bf16 where the CPU
    computes it natively; int8 where PyTorch has the quantised linear kernel."""
    if device.type != "cpu":
        return []
    found = ["fp32"]
    if training.cpu_has_bf16():
        found.append("bf16")
    if hasattr(torch.ops.quantized, "linear_dynamic") and "fbgemm" in \
            torch.backends.quantized.supported_engines:
        found.append("int8")
    return found


def cache_path() -> Path:
    """$BERTFORGE_CACHE/precision.json, else the user's cache directory's."""
    root = os.environ.get("BERTFORGE_CACHE") or \
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bertforge"
    return Path(root) / "precision.json"


def machine() -> dict:
    """What the speed of each path depends on, besides the model."""
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "capability": torch.backends.cpu.get_cpu_capability(),
            "bf16": training.cpu_has_bf16(), "threads": torch.get_num_threads(),
            "limits": {k: os.environ[k] for k in KERNEL_LIMITS if k in os.environ},
            "torch": torch.__version__, "bertforge": __version__}


def model_key(redactor) -> str:
    """The model's shape and a fingerprint of its head, the threshold and the floors:
    what its spans and its speed depend on."""
    model = redactor.tagger.model
    digest = hashlib.sha256(json.dumps(
        [{name: getattr(model.config, name) for name in (
            "num_hidden_layers", "hidden_size", "intermediate_size", "num_attention_heads",
            "vocab_size")}, redactor.threshold, redactor.floors], sort_keys=True).encode())
    for p in model.classifier.parameters():
        digest.update(p.detach().float().cpu().numpy().tobytes())
    return digest.hexdigest()[:16]


def choose(redactor, measure=None, remeasure: bool = False) -> Choice:
    """The precision for `redactor`'s model on this machine (see the module's
    docstring). measure: (redactor, names) -> (seconds, agrees, tokens), for tests."""
    device = next(redactor.tagger.model.parameters()).device
    pinned = os.environ.get(PINNED)
    if pinned:
        if pinned not in ("fp32", "bf16", "int8"):
            raise BertforgeError(f"{PINNED}={pinned!r}: give fp32, bf16 or int8, or unset it")
        return Choice(pinned, pinned=True)
    names = candidates(device)
    if len(names) <= 1:   # a GPU, or a CPU with fp32 alone: nothing to choose
        return Choice(training.autocast_for("auto", device)[2] if not names else "fp32")
    setting = machine()
    key = hashlib.sha256(json.dumps([setting, model_key(redactor), names],
                                    sort_keys=True).encode()).hexdigest()[:24]
    path = cache_path()
    cache = _read(path)
    if key in cache and not remeasure:
        try:
            return Choice(**cache[key]["choice"], cached=True)
        except (TypeError, KeyError):  # an entry of another shape: measured again
            pass
    log.info("choosing the fastest precision on this machine (once; cached in %s)", path)
    seconds, agrees, tokens = (measure or timed)(redactor, names)
    fastest = min((n for n in names if agrees.get(n)), key=lambda n: seconds[n])
    choice = Choice(fastest, seconds, agrees, tokens, setting)
    cache[key] = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "choice": {
        k: v for k, v in asdict(choice).items() if k not in ("cached", "pinned")}}
    _write(path, cache)
    return choice


def timed(redactor, names: list[str]) -> tuple[dict, dict, int]:
    """(best seconds of the model's pass over the calibration text, whether the
    redactor's spans there are fp32's, tokens a pass) for each candidate, the candidates
    taken in turn ROUNDS times so that a machine's drift hits all alike."""
    runs = {name: redactor.running_in(name) for name in names}
    spans = {name: [s.key for doc in run.detect_batch(CALIBRATION) for s in doc]
             for name, run in runs.items()}   # also each path's warm-up pass
    seconds = {name: float("inf") for name in names}
    for _ in range(ROUNDS):
        for name, run in runs.items():
            started = time.perf_counter()
            run.tagger.probabilities(CALIBRATION, precision=run.precision)
            seconds[name] = min(seconds[name], time.perf_counter() - started)
    tokens = sum(len(e.ids) for e in redactor.tagger.tokenizer.encode_batch(
        list(CALIBRATION), add_special_tokens=False))
    return seconds, {name: spans[name] == spans["fp32"] for name in names}, tokens


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):  # none yet, or unreadable: measured again and rewritten
        return {}


def _write(path: Path, cache: dict) -> None:
    if len(cache) > KEEP:  # the oldest go first
        cache = dict(sorted(cache.items(), key=lambda kv: kv[1].get("when", ""))[-KEEP:])
    try:
        write_text(path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    except (OSError, BertforgeError) as error:  # a read-only home still redacts
        log.warning("could not cache the precision choice in %s (%s); it will be measured "
                    "again next time", path, error)
