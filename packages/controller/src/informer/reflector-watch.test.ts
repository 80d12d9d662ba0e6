/**
 * ReflectorWatch keeps one watch open at a time, against the embedded API server: a second watch
 * opened while one is still open (starts that raced) ends the first without a word, and `close()`
 * ends every watch, and one whose request was still being made when it was called.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { KubeConfig } from "@kubernetes/client-node";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { ReflectorWatch } from "./reflector-watch.ts";

let api: ApiServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

async function setup() {
  api = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const watch = new ReflectorWatch(kc, () => 600);
  const ended: unknown[] = [];
  const open = () =>
    watch.watch(
      "/api/v1/namespaces",
      {},
      () => undefined,
      (err) => ended.push(err),
    );
  return { api, watch, ended, open };
}

const WAIT = { timeout: 10_000, interval: 20 };

describe("ReflectorWatch", () => {
  it("keeps one watch open: starts that raced leave no second one", async () => {
    const { api, ended, open } = await setup();
    await Promise.all([open(), open()]);
    await vi.waitFor(() => expect(api.activeWatches()).toBe(1), WAIT);
    await open();
    await vi.waitFor(() => expect(api.activeWatches()).toBe(1), WAIT);
    // The superseded ones end without a word: their owner holds the newest.
    expect(ended).toEqual([]);
  });

  it("close() ends every watch, and one still being opened; reopen() lets watches open again", async () => {
    const { api, watch, ended, open } = await setup();
    await open();
    await vi.waitFor(() => expect(api.activeWatches()).toBe(1), WAIT);
    const late = open();
    watch.close();
    await late;
    await vi.waitFor(() => expect(api.activeWatches()).toBe(0), WAIT);
    await open();
    await vi.waitFor(() => expect(api.activeWatches()).toBe(0), WAIT);
    expect(ended).toEqual([]);
    watch.reopen();
    await open();
    await vi.waitFor(() => expect(api.activeWatches()).toBe(1), WAIT);
  });
});
