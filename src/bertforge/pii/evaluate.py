"""Scoring the redactor: strict span precision, recall and F1 per group, for the model
alone, the patterns alone and the two merged, with documents per second; a bar chart and
an HTML page of examples."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..errors import BertforgeError
from ..files import write_text
from ..card import ModelCard
from ..finetune.metrics import MICRO, span_scores
from ..finetune.tagging import drop_ignored
from ..spans import Span
from .dataset import marked_groups, read_documents
from .detector import Redactor
from .merge import merge
from .recognizers import find
from .tidy import above_floors
from .labels import GROUPS
from .redact import html, html_page

SYSTEMS = ("model", "patterns", "hybrid")


def evaluate(source: str, redactor: Redactor, out: str | os.PathLike | None = None,
             limit: int | None = None, examples: int = 12, say=print,
             labels: str | dict | None = None, conll_docs: bool = False) -> dict:
    """Scores of the three systems on the documents of `source` (Gretel's schema, or
    CoNLL with a label map: predictions on ignored ranges are left out)."""
    documents = read_documents(source, split="test", labels=labels,
                               conll_docs=conll_docs)[:limit]
    marked = marked_groups(source, labels)  # real corpora mark some groups, not all
    texts = [d["text"] for d in documents]
    started = time.perf_counter()
    model = redactor.model_spans(texts, progress=True)
    model_seconds = time.perf_counter() - started
    started = time.perf_counter()
    found = [find(t, redactor.recognizers) for t in texts]
    pattern_seconds = time.perf_counter() - started
    systems = {
        "model": model,
        "patterns": [merge([], f, t) for f, t in zip(found, texts)],
        "hybrid": [redactor.with_mentions(t, merge(m, f, t)) for m, f, t in zip(model, found, texts)],
    }
    scores = {name: scored(documents, found_spans, marked)
              for name, found_spans in systems.items()}
    seconds = model_seconds + pattern_seconds
    result = {
        "documents": len(documents), "source": str(source), "threshold": redactor.threshold,
        "groups_scored": marked or list(GROUPS),
        "documents_per_second": len(documents) / seconds,
        "scores": {name: {label: {"precision": round(s.precision, 4), "recall": round(s.recall, 4),
                                  "f1": round(s.f1, 4), "gold": s.gold}
                          for label, s in table.items()} for name, table in scores.items()},
    }
    say(format_table(result))
    if marked:
        say(f"scored on {', '.join(marked)}: the groups {source} marks (other groups' "
            f"predictions are neither right nor wrong there)")
    say(f"\n{len(documents)} documents in {seconds:.1f} s: "
        f"{result['documents_per_second']:.1f} documents/s (model {model_seconds:.1f} s, "
        f"patterns {pattern_seconds:.1f} s)")
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        write_text(out / "scores.json", json.dumps(result, indent=2) + "\n")
        plot_scores(result, out / "f1-by-group.png")
        write_examples(documents[:examples], systems["hybrid"][:examples], out / "examples.html")
        say(f"wrote {out / 'scores.json'}, {out / 'f1-by-group.png'}, {out / 'examples.html'}")
    return result


def scored(documents: list[dict], found: list[list[Span]], marked: list[str] | None) -> dict:
    """Strict span scores by group of what was found in each document, against its
    gold spans: predictions on its ignored ranges, or of groups its source does not
    mark, are neither right nor wrong."""
    return span_scores([d["spans"] for d in documents],
                       [[s for s in drop_ignored(spans, d.get("ignore", ()))
                         if marked is None or s.label in marked]
                        for spans, d in zip(found, documents)])


FLOORS = (0.9, 0.95, 0.98, 0.99, 0.995)


def calibrate(source: str, redactor: Redactor, write: bool = False, floors=FLOORS,
              least_gold: int = 20, least_gain: float = 0.005, limit: int | None = None,
              say=print) -> dict:
    """Per-group floors for the model's span scores, chosen on the documents of `source`
    (a validation split): for each group with at least `least_gold` gold spans, the floor
    with the highest hybrid F1 for that group (ties to the lower), kept only where it
    raises that F1 by `least_gain` or more. The model runs once, with no floors; each
    candidate is the merge again. `write` records the floors, and the threshold they were
    chosen at, in the model's card, where `Redactor.load` (and so `bertforge redact`)
    picks them up."""
    documents = read_documents(source, split="validation")[:limit]
    if not documents:
        raise BertforgeError(f"{source} holds no documents to calibrate on")
    if redactor.tagger is None:
        raise BertforgeError("calibrating floors needs a model")
    texts = [d["text"] for d in documents]
    model = redactor.model_spans(texts, progress=True, floors={})
    found = [find(t, redactor.recognizers) for t in texts]
    gold = [d["spans"] for d in documents]

    def score(chosen: dict) -> dict:
        hybrid = [redactor.with_mentions(t, merge(above_floors(m, chosen), f, t))
                  for m, f, t in zip(model, found, texts)]
        return span_scores(gold, hybrid)

    before = score({})
    chosen = {}
    for group in GROUPS:
        if before.get(group) is None or before[group].gold < least_gold:
            continue
        best_floor, best = None, before[group].f1
        for floor in floors:
            f1 = score({group: floor})[group].f1
            if f1 > best + 1e-12:
                best_floor, best = floor, f1
        if best_floor is not None and best - before[group].f1 >= least_gain:
            chosen[group] = best_floor
    after = score(chosen)
    rows = [("group", "spans", "F1, no floor", "floor", "F1")]
    for label in [g for g in GROUPS if before.get(g) is not None and before[g].gold] + [MICRO]:
        rows.append((label if label != MICRO else "all (micro)", f"{before[label].gold:,}",
                     f"{before[label].f1:.4f}", f"{chosen[label]}" if label in chosen else "-",
                     f"{after[label].f1:.4f}"))
    say(_align(rows, rule=False))
    choice = (f"on {source} ({len(documents)} documents, threshold {redactor.threshold}), "
              f"hybrid micro F1 {before[MICRO].f1:.4f} without floors, {after[MICRO].f1:.4f} "
              f"with; " + (", ".join(f"{g} {before[g].f1:.4f} -> {after[g].f1:.4f} at {chosen[g]}"
                                     for g in chosen) or "no floor helped"))
    if write:
        # the floors hold for the threshold they were chosen at: the card keeps the two together
        path = update_card(redactor, {"threshold": redactor.threshold, "floors": chosen,
                                      "floors_choice": choice})
        redactor.floors = dict(chosen)
        say(f"wrote the floors to {path}")
    return {"floors": chosen, "choice": choice,
            "before": {k: round(v.f1, 4) for k, v in before.items()},
            "after": {k: round(v.f1, 4) for k, v in after.items()}}


def update_card(redactor: Redactor, fields: dict) -> Path:
    """Add `fields` to the card of the redactor's model, written whole."""
    if redactor.tagger is None:
        raise BertforgeError("only a model has a card to write to")
    directory = redactor.tagger.model.source
    return ModelCard.read(directory).updated(**fields).write(directory)


def evaluate_sources(sources, redactor: Redactor, out: str | os.PathLike | None = None,
                     limit: int | None = None, say=print, labels=None,
                     conll_docs: bool = False, record: bool = False) -> dict:
    """`evaluate` on each source (a folder per source under `out`), then one line per
    source: the generator's test split and the real corpora side by side. record: keep
    each source's hybrid F1 per scored group in the model's card, under "evaluation"
    (what a model card should show: synthetic and real text together)."""
    results = {}
    for source in sources:
        if len(sources) > 1:
            say(f"\n== {source}")
        where = None if out is None else \
            (Path(out) / _folder_name(source) if len(sources) > 1 else out)
        results[str(source)] = evaluate(source, redactor, where, limit, say=say,
                                        labels=labels, conll_docs=conll_docs)
    if len(sources) > 1:
        say("\n" + format_summary(results))
    if record:
        if redactor.tagger is None:
            raise BertforgeError("--record needs a model, whose card holds the scores")
        kept = dict(ModelCard.read(redactor.tagger.model.source).extra.get("evaluation", {}))
        for source, result in results.items():
            kept[source] = {"documents": result["documents"], "threshold": result["threshold"],
                            "groups_scored": result["groups_scored"],
                            "hybrid_f1": {g: v["f1"] for g, v in result["scores"]["hybrid"].items()}}
        say(f"recorded the scores in {update_card(redactor, {'evaluation': kept})}")
    return results


def _folder_name(source) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in Path(str(source)).name)


def format_summary(results: dict) -> str:
    """One row per source: its documents, PERSON and micro F1 of the hybrid."""
    rows = [("source", "documents", "groups scored", "PERSON F1", "micro F1")]
    for source, result in results.items():
        hybrid = result["scores"]["hybrid"]
        groups = result["groups_scored"]
        rows.append((source, f"{result['documents']:,}",
                     "all" if len(groups) == len(GROUPS) else ", ".join(groups),
                     f"{hybrid['PERSON']['f1']:.3f}" if hybrid.get("PERSON", {}).get("gold")
                     else "-", f"{hybrid[MICRO]['f1']:.3f}"))
    return _align(rows)


def format_table(result: dict) -> str:
    rows = [("group", "spans", "model F1", "patterns F1", "hybrid P", "hybrid R", "hybrid F1")]
    s = result["scores"]
    scored = result.get("groups_scored", GROUPS)
    for label in [g for g in GROUPS if g in s["hybrid"] and g in scored] + [MICRO]:
        h = s["hybrid"][label]
        rows.append((label if label != MICRO else "all (micro)", f"{h['gold']:,}",
                     f"{s['model'].get(label, {}).get('f1', 0):.3f}",
                     f"{s['patterns'].get(label, {}).get('f1', 0):.3f}",
                     f"{h['precision']:.3f}", f"{h['recall']:.3f}", f"{h['f1']:.3f}"))
    return _align(rows)


def _align(rows: list[tuple[str, ...]], rule: bool = True) -> str:
    """A text table: the first column to the left, the others to the right; a rule of
    dashes under the header when `rule`."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    if rule:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def plot_scores(result: dict, path: Path) -> Path:
    from .. import plots

    s = result["scores"]
    labels = [g for g in GROUPS if g in s["hybrid"] and s["hybrid"][g]["gold"]] + [MICRO]
    fig, ax = plots.figure(10, 4)
    width = 0.27
    for k, (name, color) in enumerate(zip(SYSTEMS, (plots.BLUE, plots.GREY, plots.ORANGE))):
        xs = [i + (k - 1) * width for i in range(len(labels))]
        ax.bar(xs, [s[name].get(g, {}).get("f1", 0) for g in labels], width, label=name,
               color=color)
    ax.set_xticks(range(len(labels)), ["all" if g == MICRO else g for g in labels], rotation=30,
                  ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("strict span F1")
    ax.set_title(f"Personal data found, by group ({result['documents']} test documents)")
    ax.legend(frameon=False, ncols=3, loc="lower left")
    return plots.save(fig, path)


def write_examples(documents: list[dict], found: list[list[Span]], path: Path) -> Path:
    sections = []
    for doc, spans in zip(documents, found):
        gold = {s.key for s in doc["spans"]}
        mine = {s.key for s in spans}
        missed = sorted(gold - mine, key=lambda k: k[1:])
        wrong = sorted(mine - gold, key=lambda k: k[1:])
        notes = "".join(
            f"<li>{kind}: {label} <code>{doc['text'][s:e]!r}</code></li>"
            for kind, items in (("missed", missed), ("not in the annotation", wrong))
            for label, s, e in items[:20])
        sections.append(html(doc["text"], spans, doc.get("document_type", "")) +
                        (f"<ul>{notes}</ul>" if notes else "<p>every span exact</p>"))
    write_text(path, html_page(sections, "bertforge pii evaluate: examples (hybrid)"))
    return path
