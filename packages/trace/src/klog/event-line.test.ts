import { describe, expect, it } from "vitest";
import { readTraceText } from "../reader/read-trace.ts";
import { buildExcerpt, excerpt } from "../excerpt/excerpt.ts";
import { expectSame } from "../testing/reader-paths.ts";

const K = "default/example-foo";
const H = (us: string, src: string, pid = 1) => `I1205 10:00:00.${us}       ${pid} ${src}] `;
/** What sample-controller logs for a Foo whose Deployment is someone else's (ErrResourceExists). */
const WARNING = `"Event occurred" object="${K}" fieldPath="" kind="Foo" apiVersion="samplecontroller.k8s.io/v1alpha1" type="Warning" reason="ErrResourceExists" message="Resource \\"example-foo\\" already exists and is not managed by Foo"`;
/** The same Event as older releases logged it (StartLogging(klog.Infof)). */
const LEGACY = `Event(v1.ObjectReference{Kind:"Foo", Namespace:"default", Name:"example-foo", UID:"8f6c3f0e-3c55-4f1e-9a47-0d6a9c1f2b7e", APIVersion:"samplecontroller.k8s.io/v1alpha1", ResourceVersion:"1001", FieldPath:""}): type: 'Warning' reason: 'ErrResourceExists' Resource "example-foo" already exists and is not managed by Foo`;

const LOG = [
  `${H("000000", "controller.go:131")}STAGE/watch kind=Foo event=add key=${K} rv=1001`,
  `${H("000100", "controller.go:338")}STAGE/enqueue key=${K} len=1`,
  `${H("000200", "controller.go:207")}STAGE/dequeue key=${K} len=0 worker=1`,
  `${H("000300", "controller.go:256")}STAGE/read key=${K} rv=1001`,
  `${H("000400", "event.go:377")}${WARNING}`,
  `${H("000500", "controller.go:232")}"Error syncing; requeuing for later retry" err="Resource \\"example-foo\\" already exists and is not managed by Foo" objectReference="${K}"`,
  `${H("000600", "event.go:377")}${LEGACY}`,
  // Events about what is no Foo stay client-go's noise; so does a Normal one about the Foo (a
  // pass's Synced, which its end line tells), and another process's line.
  `${H("000650", "event.go:377")}"Event occurred" object="${K}" fieldPath="" kind="Foo" apiVersion="samplecontroller.k8s.io/v1alpha1" type="Normal" reason="Synced" message="Foo synced successfully"`,
  `${H("000700", "event.go:377")}"Event occurred" object="${K}" fieldPath="" kind="Deployment" apiVersion="apps/v1" type="Normal" reason="ScalingReplicaSet" message="Scaled up replica set example-foo-6c9b5d7f84 to 1"`,
  `${H("000800", "event.go:377", 7)}${WARNING}`,
].join("\n");

describe("klog Event lines", () => {
  const { events, reader } = readTraceText(LOG, { year: 2026 });
  const notes = events.filter((e) => e.stage === "note");

  it("an Event about a Foo is a note of that Foo, at its type's level, with its reason and message", () => {
    expect(notes).toEqual([
      expect.objectContaining({
        key: K,
        level: "W",
        src: "event.go:377",
        text: expect.stringMatching(
          /reason="ErrResourceExists" message="Resource \\"example-foo\\" already exists and is not managed by Foo"$/,
        ),
      }),
      expect.objectContaining({
        key: K,
        level: "W",
        text: expect.stringContaining(
          `'ErrResourceExists' Resource "example-foo" already exists and is not managed by Foo`,
        ),
      }),
    ]);
    expect(reader.noiseLines).toBe(3);
    expect(notes[0].stage === "note" && notes[0].text.startsWith("Event occurred ")).toBe(true);
  });

  it("is read alike by the page's reader and the general one", () => {
    expectSame(new TextEncoder().encode(LOG + "\n"), [37, 400, 901]);
  });

  it("shows in the excerpt of that Foo", () => {
    const x = buildExcerpt(events, { key: K })!;
    const shown = x.rows.flatMap((r) => (r.kind === "event" ? [r.event.seq] : []));
    for (const n of notes) expect(shown).toContain(n.seq);
    expect(excerpt(events, { key: K })).toMatch(
      /event\.go:377 +"Event occurred" .*"ErrResourceExists"/,
    );
  });
});
