import { describe, expect, it } from "vitest";
import {
  decodeDeepLink,
  encodeDeepLink,
  isSafeTracePath,
  newRunSearch,
  type DeepLink,
} from "./deepLink.ts";

describe("deep links", () => {
  it("round-trips trace, foos, window, selected event and pass, and paused playhead", () => {
    const link = {
      trace: "traces/hot-loop.jsonl",
      foos: ["default/a", "ns/b"],
      window: [1000, 2500] as [number, number],
      seq: 42,
      pass: { key: "ns/b", index: 3 },
      playhead: 1800,
    };
    expect(decodeDeepLink(encodeDeepLink(link))).toMatchObject(link);
    expect(decodeDeepLink("?pass=ns%2Fb").pass).toBeUndefined();
    // A pass shows with its Foo: named alone, it brings it; beside other Foos, it is dropped.
    expect(decodeDeepLink("?pass=ns%2Fb%3A2")).toMatchObject({
      foos: ["ns/b"],
      pass: { key: "ns/b", index: 2 },
    });
    expect(decodeDeepLink("?foo=ns%2Fa&pass=ns%2Fb%3A2").pass).toBeUndefined();
    expect(decodeDeepLink("?pass=ns%2Fb%3A-1").pass).toBeUndefined();
  });

  it("keeps linear time and the pass view, and leaves the defaults out of the URL", () => {
    const seen: DeepLink = { foos: ["default/a"], timeMode: "linear", timelineView: "passes" };
    expect(encodeDeepLink(seen)).toBe("?foo=default%2Fa&time=linear&view=passes");
    expect(decodeDeepLink(encodeDeepLink(seen))).toMatchObject(seen);
    expect(encodeDeepLink({ foos: [], timeMode: "folded", timelineView: "lanes" })).toBe("");
    expect(decodeDeepLink("?time=sideways&view=x")).toMatchObject({
      timeMode: undefined,
      timelineView: undefined,
    });
  });

  it("drops a window that is empty or reversed and a non-positive seq", () => {
    expect(decodeDeepLink("?t0=5&t1=5&ev=0&at=-3")).toEqual({
      trace: undefined,
      foos: [],
      window: undefined,
      seq: undefined,
      playhead: undefined,
    });
  });

  it("opens a new run with the reader's drawing preferences, not the old run's Foos and times", () => {
    expect(newRunSearch("?foo=default%2Fa&t0=1&t1=2&ev=3&at=2&time=linear&view=passes")).toBe(
      "?time=linear&view=passes",
    );
    expect(newRunSearch("?foo=default%2Fa&t0=1&t1=2")).toBe("");
  });

  it("refuses trace paths that could leave the app", () => {
    for (const p of [
      "https://evil.example/x",
      "//evil.example/x",
      "/etc/passwd",
      "traces/../../x",
      "a b",
    ]) {
      expect(isSafeTracePath(p)).toBe(false);
      expect(decodeDeepLink(`?trace=${encodeURIComponent(p)}`).trace).toBeUndefined();
    }
    expect(isSafeTracePath("traces/create.jsonl")).toBe(true);
  });
});
