/**
 * Bad input through the browser's file open (the Web Worker reader), for representative cases of
 * the generated corpus (packages/trace/src/robustness/corpus.ts): the page throws nothing, loads
 * every event the reader yields in Node, and lists a diagnostic with the line number of each bad
 * line. One page handles all the files in turn, as a user opening file after file would.
 */
import { expect, test } from "@playwright/test";
import { badInputCorpus } from "../packages/trace/src/robustness/corpus.ts";
import { readTraceText } from "../packages/trace/src/reader/read-trace.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, serveDist, type StaticSite } from "./dashboard-harness.ts";

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveDist();
});
test.afterAll(async () => {
  await site.close();
});

const CHOSEN = [
  "nul-bytes",
  "klog-nul-run",
  "random-binary",
  "utf8-outside-strings",
  "utf8-in-key",
  "klog-utf8-in-key",
  "long-line", // 8 MB here (the CLI and Node tests take 50 MB)
  "truncated-at-40",
  "torn-tail",
  "stage-prototype-names",
  "huge-seq-then-plain",
  "deep-array",
  "crlf-everywhere",
  "klog-lines-in-jsonl",
  "klog-bad-stage-lines",
];

test("malformed files open: no page error, every readable event loaded, bad lines listed by number", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const cases = badInputCorpus({ longLine: 8 * 1024 * 1024 }).filter((c) =>
    CHOSEN.includes(c.name),
  );
  expect(cases.length).toBe(CHOSEN.length);
  await page.goto(site.url);
  let checked = 0;
  for (const c of cases) {
    const expected = readTraceText(new TextDecoder().decode(c.bytes), { year: 2026 }).events.length;
    const name = `${c.name}.${c.format === "jsonl" ? "jsonl" : "log"}`;
    await page.getByTestId("file-input").setInputFiles({
      name,
      mimeType: "application/octet-stream",
      buffer: Buffer.from(c.bytes),
    });
    await expect(page.getByTestId("source"), c.name).toHaveText(`replay · ${name}`, {
      timeout: 30_000,
    });
    await expect(page.getByTestId("event-count"), c.name).toHaveAttribute(
      "data-count",
      String(expected),
    );
    await page.getByTestId("tab-diagnostics").click();
    for (const line of c.bad) {
      await expect(
        page.getByTestId("diagnostic").filter({ hasText: new RegExp(`line ${line}\\b`) }),
        `${c.name}: line ${line}`,
      ).not.toHaveCount(0);
    }
    checked++;
  }
  console.log(`browser file open: ${checked} malformed files, 0 page errors`);

  // A file with no trace in it at all says so, instead of an empty dashboard, as the CLI does —
  // and the trace that was open stays open.
  const openName = await page.getByTestId("source").textContent();
  const openCount = await page.getByTestId("event-count").getAttribute("data-count");
  expect(Number(openCount)).toBeGreaterThan(0);
  const NO_STAGE =
    "has no STAGE events (not a loopscope JSONL trace or a klog log of the controller)";
  for (const [name, bytes, why] of [
    ["notes.txt", Buffer.from("hello\nthese are my notes\n"), NO_STAGE],
    [
      "photo.jpg",
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
      "is not a text file (binary data)",
    ],
    ["empty.jsonl", Buffer.alloc(0), "is empty"],
    [
      "create-foo.chrome.json",
      readFileSync(join(REPO, "public/traces/create-foo.chrome.json")),
      "is a Chrome trace export that loopscope convert made from create-foo.jsonl: open that file, or make a trace of this one with loopscope convert FILE --to jsonl",
    ],
  ] as const) {
    await page.getByTestId("file-input").setInputFiles({
      name,
      mimeType: "application/octet-stream",
      buffer: bytes,
    });
    await expect(page.getByTestId("load-progress"), name).toContainText(`${name} ${why}`);
    await expect(page.getByTestId("source")).toHaveText(openName!);
    await expect(page.getByTestId("event-count")).toHaveAttribute("data-count", openCount!);
  }
  expect(errors).toEqual([]);
});
