/**
 * Child process for foo-controller.test.ts: the FooController in a process of its own, as a
 * user's controller runs beside `loopscope proxy`. It talks to the cluster of the kubeconfig in
 * argv[2]; its probe's events go to stdout, one JSON line each, numbered from 1. "ready" on
 * stderr once its caches synced; SIGTERM stops it cleanly.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { FooController } from "@loopscope/controller";

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.argv[2]);
let seq = 0;
const controller = new FooController({
  kubeConfig,
  workers: 2,
  resyncMs: 0,
  probe: (e) => {
    process.stdout.write(JSON.stringify({ ...e, seq: ++seq }) + "\n");
    return seq;
  },
});
await controller.run();
process.stderr.write("ready\n");
process.once("SIGTERM", () => {
  void controller.stop().then(() => process.exit(0));
});
