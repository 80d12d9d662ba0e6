import { expect, it } from "vitest";
import { DEFAULT_PORT, parseReplayFlags, parseUpFlags, UsageError } from "./flags.ts";

it("defaults: loopback, the documented port, 2 workers, 30 s resync", () => {
  expect(parseUpFlags([])).toMatchObject({
    host: "127.0.0.1",
    port: DEFAULT_PORT,
    workers: 2,
    resyncMs: 30_000,
    verbose: false,
    share: false,
  });
});

it("reads every flag", () => {
  expect(
    parseUpFlags([
      "--port=0",
      "--host",
      "0.0.0.0",
      "--kubeconfig",
      "k",
      "--context",
      "c",
      "--workers",
      "4",
      "--resync",
      "500ms",
      "--record",
      "r.jsonl",
      "--share",
      "--open",
      "-v",
    ]),
  ).toMatchObject({
    port: 0,
    host: "0.0.0.0",
    kubeconfig: "k",
    context: "c",
    workers: 4,
    resyncMs: 500,
    record: "r.jsonl",
    share: true,
    open: true,
    verbose: true,
  });
  expect(parseUpFlags(["--context", "kind"])).toMatchObject({
    kubeconfig: expect.stringMatching(/config/),
    installCrd: false,
  });
  // What up's own message for a cluster without the Foo CRD tells a user to add.
  expect(parseUpFlags(["--kubeconfig", "k", "--install-crd"])).toMatchObject({ installCrd: true });
  expect(parseReplayFlags(["t.jsonl", "--port", "9"])).toMatchObject({ file: "t.jsonl", port: 9 });
});

it("refuses what it cannot mean, with a usage error", () => {
  for (const argv of [
    ["--port", "70000"],
    ["--port", "x"],
    ["--resync", "soon"],
    ["--workers", "0"],
    ["--bogus"],
    ["--host", "a b"],
    ["--record", "-"],
  ]) {
    expect(() => parseUpFlags(argv), argv.join(" ")).toThrow(UsageError);
  }
  expect(() => parseReplayFlags([])).toThrow(UsageError);
  expect(() => parseUpFlags(["--record", "-"])).toThrow(
    "--record -: stdout carries the dashboard's URL and the lines to copy",
  );
});

it("takes --no-open, the default, and lets the later of --open and --no-open win", () => {
  expect(parseUpFlags(["--no-open"])).toMatchObject({ open: false });
  expect(parseUpFlags([])).toMatchObject({ open: false });
  // `npm run up -- --no-open`: the script's own --open comes first.
  expect(parseUpFlags(["--open", "--no-open"])).toMatchObject({ open: false });
  expect(parseUpFlags(["--no-open", "--open"])).toMatchObject({ open: true });
  expect(parseReplayFlags(["t.jsonl", "--no-open"])).toMatchObject({
    file: "t.jsonl",
    open: false,
  });
  expect(parseReplayFlags(["--no-open", "t.jsonl", "--open"])).toMatchObject({ open: true });
  // Only --open has a negation: --no-build is a flag of its own, and --no-share is unknown.
  expect(parseUpFlags(["--no-build"])).toMatchObject({ noBuild: true, open: false });
  expect(() => parseUpFlags(["--no-share"])).toThrow(UsageError);
});

it("--help lists every flag up and replay take, --no-open included", async () => {
  const { usage: up } = await import("../commands/up.ts");
  const { usage: replay } = await import("../commands/replay.ts");
  for (const f of ["--open", "--no-open", "--no-build", "--share", "--port", "--host"]) {
    expect(up, `up ${f}`).toMatch(new RegExp(`\\n  ${f} `));
    expect(replay, `replay ${f}`).toMatch(new RegExp(`\\n  ${f} `));
  }
  expect(replay).toMatch(/\n {2}--year N /);
});
