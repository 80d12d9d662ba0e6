/**
 * `loopscope apiserver [--port N] [--kubeconfig PATH] [--ready-delay MS]`: runs the embedded
 * Kubernetes-compatible API server alone, writes a kubeconfig for it and prints the
 * `export KUBECONFIG=…` line, so kubectl (or a Go controller) can be pointed at it. Runs until
 * Ctrl-C. Exit 0 after a clean stop, 1 when the server cannot start, 2 on usage errors.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { ApiServerOptions } from "@loopscope/apiserver";
import { shellWord } from "../cli/shell-word.ts";
import { writeKubeconfigFile } from "../up/kubeconfig-file.ts";

export const usage = `usage: loopscope apiserver [--port N] [--kubeconfig PATH] [--ready-delay MS]

Runs the embedded Kubernetes-compatible API server alone (no controller, no dashboard), writes a
kubeconfig for it and prints the export KUBECONFIG=… line, for kubectl or the Go sample-controller.
Ctrl-C stops it.

  --port N          listen on 127.0.0.1:N (default: a free port)
  --kubeconfig PATH where to write the kubeconfig (not through a symbolic link; default: a fresh
                    private folder in the temp folder, removed at stop)
  --ready-delay MS  how long simulated Deployment pods take to become ready (default 1500)`;

interface Args {
  port: number;
  kubeconfig?: string;
  readyDelayMs?: number;
}

export function parseArgs(argv: string[]): Args | string {
  const args: Args = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const eq = flag.indexOf("=");
    const name = eq > 0 ? flag.slice(0, eq) : flag;
    const value = eq > 0 ? flag.slice(eq + 1) : argv[++i];
    const num = Number(value);
    switch (name) {
      case "--port":
        if (value === undefined || !Number.isInteger(num) || num < 0 || num > 65535) {
          return `--port needs a port number (0-65535), got ${value ?? "nothing"}`;
        }
        args.port = num;
        break;
      case "--kubeconfig":
        if (!value) return "--kubeconfig needs a path";
        // "-" is stdout for the file commands' output; a kubeconfig is read from a file.
        if (value === "-")
          return "--kubeconfig -: kubectl and the controller read a kubeconfig from a file, not stdout; give a path";
        args.kubeconfig = resolve(value);
        break;
      case "--ready-delay":
        if (value === undefined || !Number.isFinite(num) || num < 0) {
          return `--ready-delay needs milliseconds, got ${value ?? "nothing"}`;
        }
        args.readyDelayMs = num;
        break;
      default:
        return `unknown option ${flag}`;
    }
  }
  return args;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    process.stderr.write(
      `loopscope apiserver: ${args}\n${usage.split("\n")[0]}\n(loopscope apiserver --help says more)\n`,
    );
    return 2;
  }
  const { startApiServer } = await import("@loopscope/apiserver");
  const opts: ApiServerOptions = { port: args.port };
  if (args.readyDelayMs !== undefined) opts.deploymentReadyDelayMs = args.readyDelayMs;
  let server;
  try {
    server = await startApiServer(opts);
  } catch (e) {
    process.stderr.write(
      `loopscope apiserver: cannot listen: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
  // The default goes in a fresh 0700 folder, as `up`'s does: a predictable path in the shared
  // temp folder could be a link someone planted, or be swapped after it is written.
  let path: string;
  let removeKubeconfig = async () => {};
  try {
    if (args.kubeconfig) {
      path = args.kubeconfig;
      // A folder that is not there is a typo, not one to make: as `convert -o` says it.
      if (!existsSync(dirname(path))) throw new Error(`no such directory: ${dirname(path)}`);
      await server.writeKubeconfig(path);
    } else {
      const file = await writeKubeconfigFile(server.kubeconfigYaml());
      path = file.path;
      removeKubeconfig = file.remove;
    }
  } catch (e) {
    await server.stop();
    process.stderr.write(
      `loopscope apiserver: cannot write the kubeconfig: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
  process.stdout.write(
    `embedded API server listening on ${server.url} (Foos, Deployments, Namespaces, Events, Leases, access reviews; the simulated cluster's ReplicaSets, Pods and node, read-only)\n` +
      `kubeconfig written to ${path}; in another shell:\n\n` +
      `export KUBECONFIG=${shellWord(path)}\n\n` +
      `then e.g. kubectl apply -f public/manifests/example-foo.yaml. Ctrl-C stops.\n`,
  );
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await server.stop();
  await removeKubeconfig();
  process.stdout.write("embedded API server stopped\n");
  return 0;
}
