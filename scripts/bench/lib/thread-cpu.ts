/**
 * CPU time and page faults of the page's renderer process (in the benches' Chromium), and CPU
 * time of its threads by name, read from /proc while something runs: on a shared 2-core machine
 * wall time mostly measures the neighbours, and a load's CPU says what it costs wherever it runs.
 * Linux only.
 *
 * Threads are polled (every 100 ms), not read once at the end: a replay's workers exit when the
 * load is done, and an exited thread is gone from /proc/PID/task (its time stays in the process's
 * total; the breakdown misses up to 100 ms of it). Chromium names its threads: "DedicatedWorker"
 * (the replay's workers), "ThreadPoolForeg" (V8's background compiles and GC tasks),
 * "chromium" (the page's main thread).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";

const POLL_MS = 100;

export interface ThreadCpu {
  /** All threads of the process, ms. */
  total: number;
  /**
   * Minor page faults of the process: pages it touched for the first time. Each costs ~10–14 µs
   * on the benches' VM: ~214k of them are about a quarter of a 1M-event load's CPU there
   * (docs/performance.md).
   */
  faults: number;
  /** By thread name (Chromium's, truncated to 15 characters by Linux), ms. */
  byName: Map<string, number>;
}

/** Whether this machine can tell (Linux's /proc). */
export const canCountThreadCpu = (): boolean => existsSync("/proc/self/task");

/**
 * Starts counting the CPU of the renderer process whose threads include one named `marker` (the
 * page's: "DedicatedWorker", its replay workers); `stop()` gives what it used since, or undefined
 * when no such process was seen (or /proc is missing). Chromium's other processes are left out:
 * a fresh renderer it starts beside the page, or one being torn down, is the harness's cost.
 */
export function countThreadCpu(marker = "DedicatedWorker"): { stop(): ThreadCpu | undefined } {
  if (!canCountThreadCpu()) return { stop: () => undefined };
  const startThreads = threadSample();
  const startProcs = processSample();
  const lastThreads = new Map(startThreads);
  const marked = new Set<number>();
  const poll = () => {
    for (const [k, v] of threadSample()) {
      lastThreads.set(k, v);
      if (v.name === marker) marked.add(v.pid);
    }
  };
  const timer = setInterval(poll, POLL_MS);
  return {
    stop() {
      clearInterval(timer);
      poll();
      if (marked.size === 0) return undefined;
      const ends = processSample();
      let total = 0;
      let faults = 0;
      // The process's own counters include threads that have exited since.
      for (const pid of marked) {
        const [end, begin] = [ends.get(pid), startProcs.get(pid)];
        total += (end?.ms ?? 0) - (begin?.ms ?? 0);
        faults += (end?.faults ?? 0) - (begin?.faults ?? 0);
      }
      const byName = new Map<string, number>();
      for (const [k, v] of lastThreads) {
        if (!marked.has(v.pid)) continue;
        const used = v.ms - (startThreads.get(k)?.ms ?? 0);
        if (used > 0) byName.set(v.name, (byName.get(v.name) ?? 0) + used);
      }
      return { total, faults, byName };
    },
  };
}

const HZ = 100; // USER_HZ: 100 on every Linux the benches run on
const ms = (st: Stat): number => ((st.utime + st.stime) * 1000) / HZ;

/** "pid/tid" → thread, for every thread of every descendant of this process. */
function threadSample(): Map<string, { pid: number; name: string; ms: number }> {
  const out = new Map<string, { pid: number; name: string; ms: number }>();
  for (const pid of descendants(process.pid)) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      const st = readStat(`/proc/${pid}/task/${tid}/stat`);
      if (st) out.set(`${pid}/${tid}`, { pid, name: st.name, ms: ms(st) });
    }
  }
  return out;
}

/** pid → CPU ms and page faults so far, for every descendant of this process. */
function processSample(): Map<number, { ms: number; faults: number }> {
  const out = new Map<number, { ms: number; faults: number }>();
  for (const pid of descendants(process.pid)) {
    const st = readStat(`/proc/${pid}/stat`);
    if (st) out.set(pid, { ms: ms(st), faults: st.minflt });
  }
  return out;
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const st = readStat(`/proc/${d}/stat`);
    if (!st) continue;
    const list = children.get(st.ppid);
    if (list) list.push(Number(d));
    else children.set(st.ppid, [Number(d)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** proc(5) stat: the name is in parentheses and may hold spaces; fields are counted after it. */
interface Stat {
  name: string;
  ppid: number;
  minflt: number;
  utime: number;
  stime: number;
}

function readStat(path: string): Stat | undefined {
  let s: string;
  try {
    s = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  const close = s.lastIndexOf(")");
  const f = s.slice(close + 2).split(" ");
  return {
    name: s.slice(s.indexOf("(") + 1, close),
    ppid: Number(f[1]),
    minflt: Number(f[7]),
    utime: Number(f[11]),
    stime: Number(f[12]),
  };
}
