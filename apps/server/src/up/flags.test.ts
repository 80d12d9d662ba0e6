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
  });
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
  ]) {
    expect(() => parseUpFlags(argv), argv.join(" ")).toThrow(UsageError);
  }
  expect(() => parseReplayFlags([])).toThrow(UsageError);
});
