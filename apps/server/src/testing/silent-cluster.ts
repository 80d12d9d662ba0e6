/**
 * A kubeconfig whose cluster accepts connections and never answers: what a firewall that drops
 * packets, or a VPN that is off, looks like from the client. For tests of what gives up, and when.
 */
import { createServer, type Socket } from "node:net";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface SilentCluster {
  url: string;
  kubeconfig: string;
  close(): Promise<void>;
}

export async function startSilentCluster(dir: string): Promise<SilentCluster> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const kubeconfig = join(dir, "silent-kubeconfig.yaml");
  await writeFile(
    kubeconfig,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: silent",
      "  cluster:",
      `    server: ${url}`,
      // Plain HTTP: client-node refuses it unless told not to verify TLS.
      "    insecure-skip-tls-verify: true",
      "users:",
      "- name: someone",
      "  user:",
      "    token: t",
      "contexts:",
      "- name: silent",
      "  context:",
      "    cluster: silent",
      "    user: someone",
      "current-context: silent",
      "",
    ].join("\n"),
  );
  return {
    url,
    kubeconfig,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
