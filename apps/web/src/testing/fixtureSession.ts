/**
 * Test helper: a TraceSession loaded from a real trace text through packages/trace's reader and
 * Analyzer (the same path the replay worker takes, minus the worker).
 */
import { TraceReader } from "@loopscope/trace";
import { TraceSession } from "../store/session.ts";

export function sessionFromText(text: string, name = "fixture.log"): TraceSession {
  const session = new TraceSession({ kind: "replay", name });
  const reader = new TraceReader();
  session.push(reader.push(text));
  session.push(reader.end());
  session.addDiagnostics(reader.diagnostics);
  return session;
}
