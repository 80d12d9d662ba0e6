/**
 * Compare two runs: the open trace against another one (a sample, a recorded run, or a file) —
 * counts side by side and the two main Foos' passes on one time axis, aligned at each Foo's
 * creation (or, for a Foo that existed before the run, its informer's initial list). Made for
 * hot-loop vs fix-hot-loop.
 */
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { scaleLinear } from "d3";
import { API, TOKEN_HEADER } from "@loopscope/protocol";
import { useRuns } from "../live/api.ts";
import { fetchTrace, loadTrace, type Loading } from "../replay/load.ts";
import type { TraceSession } from "../store/session.ts";
import { causeStyle } from "../ui/palette.ts";
import {
  compareRows,
  originWords,
  runSide,
  type RunSide,
  type SideSource,
} from "./compareModel.ts";
import { msTicks } from "./msTicks.ts";

function sourceOf(session: TraceSession, name: string): SideSource {
  const store = session.store;
  return {
    name,
    keys: store.keyList(),
    events: (k) => Array.from(store.rowsOf(k), (r) => store.event(r)),
    summary: (k) => session.summaryOf(k),
    passes: (k) => session.passesOf(k),
  };
}

function useVersion(session: TraceSession | undefined): number {
  return useSyncExternalStore(
    session?.subscribe ?? (() => () => {}),
    session?.getVersion ?? (() => 0),
  );
}

export function ComparePanel({
  session,
  token,
  focusKey,
  name,
}: {
  session: TraceSession;
  token?: string;
  focusKey?: string;
  /** What the open trace is called (a replay server's file; the session only knows its stream). */
  name?: string;
}) {
  const [other, setOther] = useState<Loading | undefined>();
  const [error, setError] = useState<string | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);
  const samples = useQuery({
    queryKey: ["workshop-samples"],
    queryFn: async (): Promise<{ file: string; title: string }[]> => {
      const res = await fetch("traces/index.json");
      if (!res.ok) return [];
      const body = (await res.json()) as { traces?: { file: string; title: string }[] };
      return (body.traces ?? []).filter((t) => /^[A-Za-z0-9._-]+$/.test(t.file));
    },
    staleTime: Infinity,
  });
  const runs = useRuns(token);
  const v1 = useVersion(session);
  const v2 = useVersion(other?.session);
  const leftName = name ?? session.source.name ?? session.source.kind;
  // Recomputed per render: both versions are read above, so a loading trace redraws as it grows.
  void v1;
  void v2;
  const left = runSide(sourceOf(session, leftName), focusKey);
  const right = other
    ? runSide(sourceOf(other.session, other.session.source.name ?? "other"))
    : undefined;

  const open = (p: Promise<Loading> | Loading) => {
    setError(undefined);
    Promise.resolve(p).then(
      (l) => {
        other?.cancel();
        setOther(l);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  };

  return (
    <div className="compare" data-testid="compare-panel">
      <div className="compare-pick">
        <span>
          Compare <strong>{left.name}</strong> with
        </span>
        <select
          data-testid="compare-sample"
          value=""
          aria-label="Compare with a sample trace"
          onChange={(e) => {
            const f = e.target.value;
            if (f) open(fetchTrace(`traces/${f}`, f, { kind: "replay", name: f }));
          }}
        >
          <option value="">a sample…</option>
          {(samples.data ?? []).map((s) => (
            <option key={s.file} value={s.file}>
              {s.title}
            </option>
          ))}
        </select>
        {token && (runs.data ?? []).length > 0 && (
          <select
            data-testid="compare-run"
            value=""
            aria-label="Compare with a recorded run"
            onChange={(e) => {
              const n = e.target.value;
              if (n)
                open(
                  fetchTrace(
                    API.run(n).replace(/^\//, ""),
                    n,
                    { kind: "replay", name: n },
                    { [TOKEN_HEADER]: token },
                  ),
                );
            }}
          >
            <option value="">a recorded run…</option>
            {(runs.data ?? []).map((r) => (
              <option key={r.name} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
        )}
        {/* A button (as the top bar's "Open trace…"): a label around a hidden input was skipped
            by Tab and deaf to Enter and Space. */}
        <button data-testid="compare-file-button" onClick={() => fileInput.current?.click()}>
          a file…
        </button>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="compare-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) open(loadTrace(f, f.name, { kind: "replay", name: f.name }));
            e.target.value = "";
          }}
        />
        {error && <span className="error">{error}</span>}
      </div>
      {right ? (
        <div className="compare-body">
          <CompareTable left={left} right={right} />
          <AlignedTimelines sides={[left, right]} />
        </div>
      ) : (
        <p className="muted">
          Pick a second run — e.g. open hot-loop and compare it with fix-hot-loop.
        </p>
      )}
    </div>
  );
}

function CompareTable({ left, right }: { left: RunSide; right: RunSide }) {
  return (
    <table className="compare-table" data-testid="compare-table">
      <thead>
        <tr>
          <th />
          <th>
            {left.name}
            <div className="muted mono">{left.key}</div>
          </th>
          <th>
            {right.name}
            <div className="muted mono">{right.key}</div>
          </th>
        </tr>
      </thead>
      <tbody>
        {compareRows([left, right]).map((r) => {
          const a = left.summary ? r.value(left.summary) : "—";
          const b = right.summary ? r.value(right.summary) : "—";
          return (
            <tr key={r.label} className={a !== b ? "differs" : ""}>
              <td>{r.label}</td>
              <td>{a}</td>
              <td>{b}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function AlignedTimelines({ sides }: { sides: RunSide[] }) {
  const W = 900;
  const rowH = 54;
  // The rows' names and counts stand left of the bars, which start past the widest of them (in
  // the SVG's units, measured once drawn): a fixed start cut "…aces/hot-loop.jsonl" and ran
  // "9 successful writes" under the write ticks.
  const svg = useRef<SVGSVGElement>(null);
  const [labelW, setLabelW] = useState(0);
  useLayoutEffect(() => {
    const texts = svg.current?.querySelectorAll<SVGTextElement>("[data-testid=aligned-row] > text");
    const w = Math.ceil(Math.max(0, ...Array.from(texts ?? [], (t) => t.getComputedTextLength())));
    if (w !== labelW) setLabelW(w);
  });
  const L = Math.min(W / 2, Math.max(150, 8 + labelW + 16));
  const end = Math.max(1, ...sides.flatMap((s) => s.passes.map((p) => p.end)));
  // Room on the right for half the last tick's label, centred on its tick ("1.6 s" was cut).
  const x = scaleLinear()
    .domain([0, end])
    .range([L, W - 28]);
  const H = 30 + sides.length * rowH + 24;
  const origin = originWords(sides);
  return (
    <figure className="chart aligned" data-testid="aligned-timelines">
      <figcaption>
        Passes of each run's Foo, aligned {origin.caption} (0 on the axis); ticks below are writes
      </figcaption>
      <svg
        ref={svg}
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label={`Two runs aligned ${origin.caption}`}
      >
        <defs>
          <pattern
            id="cmp-hatch"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <line x1="0" y1="0" x2="0" y2="6" stroke="rgba(0,0,0,0.55)" strokeWidth="2" />
          </pattern>
        </defs>
        <line x1={x(0)} x2={x(0)} y1={10} y2={H - 22} className="creation-line" />
        <text x={x(0) + 4} y={20} className="chart-note">
          {origin.mark}
        </text>
        {sides.map((s, i) => {
          const y = 30 + i * rowH;
          return (
            <g key={i} data-testid="aligned-row">
              <text x={8} y={y + 18} className="row-label">
                {s.name.length > 40 ? `…${s.name.slice(-39)}` : s.name}
              </text>
              <text x={8} y={y + 34} className="chart-note">
                {s.passes.length} passes · {s.writes.length} successful writes
              </text>
              {s.passes.map((p, j) => {
                const st = causeStyle(p.cause);
                const w = Math.max(2, x(p.end) - x(p.start));
                return (
                  <g key={j}>
                    <rect x={x(p.start)} y={y} width={w} height={26} fill={st.color} rx={2}>
                      <title>{`pass ${j + 1}: ${st.label}, ${p.changing} changing write(s)`}</title>
                    </rect>
                    {st.hatch && (
                      <rect x={x(p.start)} y={y} width={w} height={26} fill="url(#cmp-hatch)" />
                    )}
                  </g>
                );
              })}
              {s.writes.map((t, j) => (
                <line key={j} x1={x(t)} x2={x(t)} y1={y + 30} y2={y + 40} className="write-tick" />
              ))}
            </g>
          );
        })}
        {msTicks(x, 6).map(({ ms, label }) => (
          <text key={ms} x={x(ms)} y={H - 6} textAnchor="middle" className="chart-note">
            {label}
          </text>
        ))}
      </svg>
    </figure>
  );
}
