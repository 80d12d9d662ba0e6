/**
 * A synthetic sample-controller klog log for benchmarks: many Foos reconciled in interleaved
 * passes (watch → enqueue → dequeue → read → write → "Successfully synced"), with the noise a
 * real -v=4 log carries (event recorder, reflector, "Processing object"). Deterministic.
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";

export interface SynthInfo {
  path: string;
  bytes: number;
  lines: number;
  stageLines: number;
}

const VERSION = 1;

/** xorshift32: the same file on every machine. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

export function synthKlog(dir: string, stageLines: number, foos = 2000): SynthInfo {
  const path = `${dir}/klog-v${VERSION}-${stageLines}.log`;
  const countsPath = path + ".json";
  if (existsSync(path) && existsSync(countsPath)) {
    return {
      path,
      bytes: statSync(path).size,
      ...(JSON.parse(readFileSync(countsPath, "utf8")) as { lines: number; stageLines: number }),
    };
  }
  const rand = rng(20261202);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  let buf: string[] = [];
  let lines = 0;
  let stages = 0;
  let t = Date.UTC(2026, 11, 2, 9, 0, 0) * 1000;
  let rv = 1000;
  const fooRv = new Int32Array(foos);
  const header = (lv: string, src: string) => {
    t += 1 + Math.floor(rand() * 300);
    const d = new Date(Math.floor(t / 1000));
    const us = t % 1_000_000;
    return `${lv}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(us, 6)}   48211 ${src}] `;
  };
  const emit = (line: string) => {
    buf.push(line);
    lines++;
    if (buf.length >= 4096) {
      writeSync(fd, buf.join("\n") + "\n");
      buf = [];
    }
  };
  while (stages < stageLines) {
    const i = Math.floor(rand() * foos);
    const key = `ns-${i % 17}/foo-${i}`;
    const worker = 1 + (i & 1);
    const old = fooRv[i] || ++rv;
    const resync = rand() < 0.3 && fooRv[i] !== 0;
    const next = resync ? old : ++rv;
    emit(
      `${header("I", "controller.go:133")}STAGE/watch kind=Foo event=${fooRv[i] ? "update" : "add"} key=${key} oldRv=${old} rv=${next}`,
    );
    emit(
      `${header("I", "controller.go:338")}STAGE/enqueue key=${key} len=${1 + Math.floor(rand() * 3)}`,
    );
    emit(`${header("I", "controller.go:366")}"Processing object" object="${key}"`);
    emit(`${header("I", "controller.go:207")}STAGE/dequeue key=${key} len=0 worker=${worker}`);
    emit(`${header("I", "controller.go:256")}STAGE/read key=${key} rv=${next} generation=1`);
    const changed = !resync && rand() < 0.5;
    const wrote = changed ? ++rv : next;
    emit(
      `${header("I", "controller.go:325")}STAGE/write verb=updateStatus target=foos/${key}/status rv=${wrote} code=200`,
    );
    emit(`${header("I", "controller.go:222")}"Successfully synced" objectName="${key}"`);
    emit(
      `${header("I", "event.go:377")}"Event occurred" object="${key}" fieldPath="" kind="Foo" apiVersion="samplecontroller.k8s.io/v1alpha1" type="Normal" reason="Synced" message="Foo synced successfully"`,
    );
    if (rand() < 0.05) {
      emit(
        `${header("I", "reflector.go:376")}Listing and watching *v1alpha1.Foo from pkg/mod/k8s.io/client-go@v0.33.0/tools/cache/reflector.go:285`,
      );
    }
    fooRv[i] = wrote;
    stages += 5;
  }
  if (buf.length) writeSync(fd, buf.join("\n") + "\n");
  closeSync(fd);
  renameSync(tmp, path);
  const counts = { lines, stageLines: stages };
  writeFileSync(countsPath, JSON.stringify(counts));
  return { path, bytes: statSync(path).size, ...counts };
}
