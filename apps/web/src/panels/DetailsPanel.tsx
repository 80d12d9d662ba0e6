/**
 * Details of the selected event (all fields, source file:line, raw log line, the object's
 * resourceVersion history) or else the selected pass (cause, outcome and errors, triggers,
 * writes) — one of the two, never both. All values are text.
 */
import type { TraceEvent } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { memo, useRef } from "react";
import { useSessionVersion, useViewPick } from "../app/hooks.ts";
import { passLabel } from "../timeline/layout.ts";
import { formatWall } from "../timeline/timeScale.ts";
import { objectOf, rvHistory } from "./objectHistory.ts";
import { passErrors } from "../store/passErrors.ts";
import { otherControllerNames } from "./otherControllers.ts";
import { eventText, passText } from "./selectionText.ts";

function show(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

export const DetailsPanel = memo(function DetailsPanel({
  session,
  view,
}: {
  session: TraceSession;
  view: ViewStore;
}) {
  useSessionVersion(session, 250);
  // A button here that selects an event or a pass replaces what the panel shows, itself with it:
  // the focus goes to the panel (the same element for an event and a pass), not to <body>, so
  // a screen reader reads where it is and the next Tab stays in the panel.
  const panel = useRef<HTMLElement>(null);
  const select = (sel: { selectedSeq: number | undefined }) => {
    view.set(sel);
    panel.current?.focus();
  };
  const selectedSeq = useViewPick(view, (s) => s.selectedSeq);
  const selectedPass = useViewPick(view, (s) => s.selectedPass);
  const row = selectedSeq === undefined ? -1 : session.store.rowOfSeq(selectedSeq);
  const e = row >= 0 ? session.store.event(row) : undefined;
  const selected = selectedPass
    ? session.passesOf(selectedPass.key)[selectedPass.index]
    : undefined;
  // One thing at a time: a click on a pass's dequeue or end selects the event and its pass; the
  // event is shown, with a way to its pass.
  const pass = e ? undefined : selected;
  const errors = pass ? passErrors(session.store, pass) : [];
  const endRow = pass?.endSeq === undefined ? -1 : session.store.rowOfSeq(pass.endSeq);
  const end = endRow >= 0 ? session.store.event(endRow) : undefined;
  // loopscope proxy ends a pass it inferred from a burst of writes: say so where the pass is read.
  const fromWire = end?.stage === "done" && end.inferred === true;
  // An add of the informer's initial list: the Foo existed before the run, nobody changed it.
  const initialList = (seq: number | undefined) => {
    const r = seq === undefined ? -1 : session.store.rowOfSeq(seq);
    const w = r >= 0 ? session.store.event(r) : undefined;
    return w?.stage === "watch" && w.initial === true;
  };
  const listedStart = pass?.triggers.some((t) => t.cause !== "self" && initialList(t.watchSeq));
  const others =
    pass?.cause === "external" && !listedStart ? otherControllerNames(session.findings()) : [];
  const where = (seq: number) => {
    const r = session.store.rowOfSeq(seq);
    const line = r >= 0 ? session.store.numOf("line", r) : undefined;
    return line !== undefined ? `line ${line}` : `seq ${seq}`;
  };
  if (!e && !pass) {
    return (
      <section ref={panel} tabIndex={-1} className="panel details" aria-label="Details">
        <h2>Details</h2>
        <p className="muted">
          Click a mark or a pass on the timeline (or press ] for the next pass, → for the next
          event). Hover for a summary.
        </p>
      </section>
    );
  }
  return (
    <section
      ref={panel}
      tabIndex={-1}
      className="panel details"
      aria-label="Details"
      data-testid="details"
    >
      <h2>Details</h2>
      {e && <EventDetails session={session} e={e} row={row} view={view} />}
      {e && selected && (
        <p className="muted" data-testid="event-pass">
          in{" "}
          <button className="link" onClick={() => select({ selectedSeq: undefined })}>
            pass {passLabel(selected)}
          </button>
        </p>
      )}
      {pass && (
        <div data-testid="pass-details">
          <h3>{passText(pass)}</h3>
          <dl>
            <dt>cause</dt>
            <dd>{pass.cause + (pass.inferred ? " (inferred)" : "")}</dd>
            <dt>start</dt>
            <dd>{formatWall(pass.start, true)}</dd>
            <dt>duration</dt>
            <dd>
              {pass.end === undefined
                ? "open"
                : `${((pass.end - pass.start) / 1000).toFixed(3)} ms`}
            </dd>
            <dt>outcome</dt>
            <dd>{pass.outcome ?? "—"}</dd>
            {fromWire && (
              <>
                <dt>seen</dt>
                <dd data-testid="pass-from-wire">
                  inferred from the wire: loopscope proxy saw the watch events and writes, not the
                  controller's queue
                </dd>
              </>
            )}
            {errors.length > 0 && (
              <>
                <dt>errors</dt>
                <dd className="error" data-testid="pass-errors">
                  {errors.map((x) => (
                    <div key={x.seq}>
                      {where(x.seq)}: {x.text}
                    </div>
                  ))}
                </dd>
              </>
            )}
            <dt>writes</dt>
            <dd>
              {pass.fromMarkers && pass.writeSeqs.length === 0
                ? "none logged (no STAGE/write line)"
                : `${pass.writeSeqs.length} (${pass.changingWrites} changing, ${pass.noopWrites} no-op, ${pass.conflicts} conflict${pass.conflicts === 1 ? "" : "s"})`}
            </dd>
            {pass.changedFields.length > 0 && (
              <>
                <dt>changed</dt>
                <dd>{pass.changedFields.join(", ")}</dd>
              </>
            )}
          </dl>
          {pass.fromMarkers && pass.triggers.length === 0 ? (
            <p className="muted" data-testid="pass-from-marker">
              Known from its end line alone: the log has no enqueue or dequeue line for it.
            </p>
          ) : (
            <h4>
              Triggers ({pass.triggers.length} enqueue{pass.triggers.length === 1 ? "" : "s"} →{" "}
              {pass.dequeueSeq === undefined ? "no dequeue line" : "1 dequeue"})
            </h4>
          )}
          {/* Events are named as the excerpt names them — a log's by line ("line 14"), a JSONL
              trace's by seq ("seq 7") — and passes by number ("#2"): never both by "#". */}
          <ol className="triggers">
            {pass.triggers.map((t) => (
              <li key={t.enqueueSeq}>
                {t.cause}
                {t.inferred ? " (inferred)" : ""}:{" "}
                {t.writeSeq !== undefined && (
                  <button className="link" onClick={() => select({ selectedSeq: t.writeSeq })}>
                    write {where(t.writeSeq)}
                  </button>
                )}
                {t.writeSeq !== undefined && " → "}
                {t.watchSeq !== undefined && (
                  <button className="link" onClick={() => select({ selectedSeq: t.watchSeq })}>
                    watch {where(t.watchSeq)}
                  </button>
                )}
                {t.watchSeq !== undefined && " → "}
                <button className="link" onClick={() => select({ selectedSeq: t.enqueueSeq })}>
                  enqueue {where(t.enqueueSeq)}
                </button>
                {pass.dequeueSeq !== undefined && ` → dequeue ${where(pass.dequeueSeq)}`}
                {initialList(t.watchSeq) && (
                  <span className="muted" data-testid="trigger-initial-list">
                    {" "}
                    (an add of the informer's initial list: the Foo existed before the run)
                  </span>
                )}
              </li>
            ))}
          </ol>
          {others.length > 0 && (
            <p className="muted" data-testid="pass-other-controller">
              Another controller is also reconciling Foos on this cluster ({others.join(", ")}): an
              external trigger may be its write, and its own passes are not in this trace.
            </p>
          )}
        </div>
      )}
    </section>
  );
});

function EventDetails({
  session,
  e,
  row,
  view,
}: {
  session: TraceSession;
  e: TraceEvent;
  row: number;
  view: ViewStore;
}) {
  const rec = e as unknown as Record<string, unknown>;
  // Kept with the event, or read back from the file (a dropped klog log keeps its lines there).
  const log = session.logLine(row);
  const obj = objectOf(e);
  const { steps: history, lifeStartSeq } = obj
    ? rvHistory(session.store, e.key, obj, e.seq)
    : { steps: [], lifeStartSeq: undefined };
  return (
    <div data-testid="event-details">
      <h3>{eventText(e)}</h3>
      <dl>
        <dt>time</dt>
        <dd>{formatWall(e.ts, true)} UTC</dd>
        {e.src && (
          <>
            <dt>source</dt>
            <dd data-testid="event-src">
              {e.src}
              {e.line !== undefined ? ` (trace line ${e.line})` : ""}
            </dd>
          </>
        )}
        {Object.entries(rec)
          .filter(([k]) => !["seq", "ts", "stage", "src", "raw", "line"].includes(k))
          .map(([k, v]) => (
            <FieldRow key={k} name={k} value={show(v)} />
          ))}
      </dl>
      {(log.line !== undefined || log.reading) && (
        <>
          <h4>Raw log line</h4>
          <pre className="raw" data-testid="event-raw" aria-busy={log.reading}>
            {log.line ?? "reading it from the file…"}
          </pre>
        </>
      )}
      {obj && history.length > 0 && (
        <>
          <h4>
            resourceVersion history of {obj}
            {lifeStartSeq !== undefined && (
              <span className="muted" data-testid="rv-history-life">
                {" "}
                (the Foo created again at seq {lifeStartSeq})
              </span>
            )}
          </h4>
          {/* Three columns, the rv never broken nor pushed out of the panel: what happened
              wraps instead (a 1280 px window gives the panel ~260 px). */}
          <table className="rv-history" data-testid="rv-history">
            <thead>
              <tr>
                <th>seq</th>
                <th>event</th>
                <th className="num">rv</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.seq} className={h.seq === e.seq ? "selected" : undefined}>
                  <td>
                    <button className="link" onClick={() => view.set({ selectedSeq: h.seq })}>
                      {h.seq}
                    </button>
                  </td>
                  <td>
                    {h.stage} {h.what}
                  </td>
                  <td className="num rv" data-testid="rv-history-rv">
                    {h.rv}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

function FieldRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </>
  );
}
