/**
 * Hover card for a mark or a pass. Everything from the trace is rendered as React text. It sits
 * below and right of the pointer, and flips to the left (or above) where it would leave the
 * timeline: near the right edge it used to squeeze into a column one letter wide.
 */
import { useLayoutEffect, useRef, useState } from "react";
import { listInBrief } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { Hit } from "./hitTest.ts";
import { passLabel } from "./layout.ts";
import { formatWall } from "./timeScale.ts";

export function Tooltip({
  session,
  hit,
  x,
  y,
}: {
  session: TraceSession;
  hit: Hit;
  x: number;
  y: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [flip, setFlip] = useState({ x: false, y: false });
  useLayoutEffect(() => {
    const el = box.current;
    const parent = el?.offsetParent as HTMLElement | null;
    if (!el || !parent) return;
    const next = {
      x: x + 14 + el.offsetWidth > parent.clientWidth && x - 14 - el.offsetWidth >= 0,
      y: y + 14 + el.offsetHeight > parent.clientHeight && y - 14 - el.offsetHeight >= 0,
    };
    if (next.x !== flip.x || next.y !== flip.y) setFlip(next);
  });
  const lines: string[] = [];
  if (hit.kind === "event") {
    const row = session.store.rowOfSeq(hit.seq);
    if (row < 0) return null;
    const e = session.store.event(row) as unknown as Record<string, unknown>;
    lines.push(`${String(e.stage)} · seq ${hit.seq} · ${formatWall(Number(e.ts), true)}`);
    for (const [k, v] of Object.entries(e)) {
      if (["seq", "ts", "stage", "raw", "extra"].includes(k)) continue;
      lines.push(`${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
    }
  } else if (hit.kind === "pass") {
    const p = session.passesOf(hit.key)[hit.index];
    if (!p) return null;
    lines.push(`${p.key} ${passLabel(p)}`);
    const dur = p.end === undefined ? "open" : `${((p.end - p.start) / 1000).toFixed(3)} ms`;
    lines.push(`duration ${dur}; writes ${p.writeSeqs.length} (${p.changingWrites} changing)`);
    if (p.outcome) lines.push(`outcome ${p.outcome}`);
    if (p.changedFields.length) lines.push(`changed ${listInBrief(p.changedFields)}`);
  }
  return (
    <div
      ref={box}
      className="tooltip"
      data-testid="tooltip"
      style={{
        left: flip.x ? undefined : x + 14,
        right: flip.x ? `calc(100% - ${x - 14}px)` : undefined,
        top: flip.y ? undefined : y + 14,
        bottom: flip.y ? `calc(100% - ${y - 14}px)` : undefined,
      }}
    >
      {lines.map((l, i) => (
        <div key={i} className={i === 0 ? "tooltip-title" : undefined}>
          {l}
        </div>
      ))}
    </div>
  );
}
