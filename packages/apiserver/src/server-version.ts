/**
 * What `/version` reports: kubectl's version dispatcher picks its 1.32 binary from it, and the
 * simulated node's kubelet reports the same version.
 */
export const SERVER_VERSION = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0",
  gitCommit: "loopscope-embedded",
  gitTreeState: "clean",
  buildDate: "2026-12-02T00:00:00Z",
  goVersion: "go1.23.0",
  compiler: "gc",
  platform: "linux/amd64",
};
