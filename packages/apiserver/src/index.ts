/**
 * @loopscope/apiserver — an in-process, in-memory, Kubernetes-compatible API server for Foos
 * (samplecontroller.k8s.io/v1alpha1), apps/v1 Deployments, Namespaces and core/v1 Events, with a
 * simulated Deployment controller, garbage collector and run-time fault injection.
 *
 * Controllers must reach it over HTTP only (use `kubeconfigYaml()` / `writeKubeconfig()`).
 */
export { startApiServer } from "./api-server.ts";
export type {
  ApiServer,
  ApiServerOptions,
  CompetingWriterTarget,
  FaultState,
  Faults,
  Verb,
} from "./types.ts";
export { VERBS } from "./types.ts";
export { COMPETING_WRITER_ANNOTATION } from "./actors/competing-writer.ts";
export { REVISION_ANNOTATION } from "./actors/pod-template-hash.ts";
export { humanDuration } from "./table/human-duration.ts";
export { FOO_CRD } from "./resources/foo-crd.ts";
export { KubeconfigSymlinkError } from "./kubeconfig.ts";
