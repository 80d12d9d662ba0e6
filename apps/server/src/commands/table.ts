/** The CLI's commands, loaded lazily so `loopscope stats` never pays for the API server. */
export interface Command {
  run(argv: string[]): Promise<number>;
  usage: string;
}

export interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

export const commandTable: Record<string, CommandEntry> = {
  up: {
    summary: "start a cluster, the controller and the live dashboard (Ctrl-C stops)",
    load: () => import("./up.ts"),
  },
  replay: {
    summary: "serve the dashboard over a saved trace FILE",
    load: () => import("./replay.ts"),
  },
  run: { summary: "run a scenario headless and write its trace", load: () => import("./run.ts") },
  stats: {
    summary: "per-Foo stage counts, pass causes, quiescence and hot loops of a trace FILE",
    load: () => import("./stats.ts"),
  },
  excerpt: {
    summary: "the annotated STAGE excerpt of one Foo, from creation to quiescent",
    load: () => import("./excerpt.ts"),
  },
  convert: {
    summary: "convert a trace FILE to Chrome/Perfetto JSON, OTLP spans or loopscope JSONL",
    load: () => import("./convert.ts"),
  },
  proxy: {
    summary: "a Kubernetes API proxy that traces any controller pointed at it, with the dashboard",
    load: () => import("./proxy.ts"),
  },
  apiserver: {
    summary: "run the embedded Kubernetes API server alone and print its KUBECONFIG",
    load: () => import("./apiserver.ts"),
  },
};
