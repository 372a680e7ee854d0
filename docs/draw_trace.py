"""Draw one trace of an OTLP JSON lines file (``agenthub demo --trace DIR`` writes
``DIR/traces.jsonl``) as a waterfall PNG, as a trace viewer would show it: a bar per span
(its service's colour), indented by depth, ordered as the tree is walked.

    python docs/draw_trace.py DIR/traces.jsonl docs/demo-trace.png

The trace drawn is the one whose root span's name starts with ``--root`` (default ``demo:``,
the demo's goal); the ASGI instrumentation's per-message ``http send``/``http receive``
spans are left out, and at most ``--rows`` spans are drawn. Needs matplotlib.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from app.demo.traces import read_spans

NOISE = (" http send", " http receive")


def tree_rows(spans: list[dict[str, Any]], root_prefix: str, rows: int) -> list[tuple[int, Any]]:
    roots = [s for s in spans if s["name"].startswith(root_prefix) and not s.get("parentSpanId")]
    if not roots:
        raise SystemExit(f"no root span named {root_prefix!r}…")
    root = roots[0]
    mine = [s for s in spans if s["traceId"] == root["traceId"] and not s["name"].endswith(NOISE)]
    children: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for span in mine:
        children[span.get("parentSpanId", "")].append(span)
    out: list[tuple[int, Any]] = []

    def walk(span: dict[str, Any], depth: int) -> None:
        if len(out) >= rows:
            return
        out.append((depth, span))
        for child in sorted(children[span["spanId"]], key=lambda s: int(s["startTimeUnixNano"])):
            walk(child, depth + 1)

    walk(root, 0)
    return out


def draw(rows: list[tuple[int, Any]], out: Path, total: int) -> None:
    t0 = int(rows[0][1]["startTimeUnixNano"])
    services = sorted({s["service"] for _, s in rows})
    colours = {name: plt.get_cmap("tab10")(i % 10) for i, name in enumerate(services)}
    figure, axes = plt.subplots(figsize=(14, 0.28 * len(rows) + 1.6))
    for y, (depth, span) in enumerate(rows):
        start = (int(span["startTimeUnixNano"]) - t0) / 1e6
        width = max((int(span["endTimeUnixNano"]) - int(span["startTimeUnixNano"])) / 1e6, 0.3)
        axes.barh(y, width, left=start, height=0.7, color=colours[span["service"]])
        label = f"{'  ' * depth}{span['service']}: {span['name']}"
        axes.text(-2, y, label[:70], ha="right", va="center", fontsize=7, family="monospace")
    axes.set_ylim(len(rows) - 0.5, -0.5)
    axes.set_yticks([])
    axes.set_xlabel("milliseconds since the goal's span began")
    axes.set_title(
        f"one trace: {rows[0][1]['name']} ({total} spans across "
        f"{len(services)} processes; the first {len(rows)} drawn)"
    )
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[s]) for s in services]
    axes.legend(handles, services, loc="lower right", fontsize=8)
    figure.subplots_adjust(left=0.38, right=0.98, top=0.96, bottom=0.04)
    figure.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("traces", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--root", default="demo:")
    parser.add_argument("--rows", type=int, default=70)
    args = parser.parse_args()
    spans = read_spans(args.traces)
    rows = tree_rows(spans, args.root, args.rows)
    total = sum(1 for s in spans if s["traceId"] == rows[0][1]["traceId"])
    draw(rows, args.png, total)
    print(f"drew {len(rows)} of the trace's {total} spans to {args.png}")


if __name__ == "__main__":
    main()
