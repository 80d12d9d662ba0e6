/**
 * Preflight for a kubeconfig cluster: turn what would otherwise be an informer retrying forever
 * into one clear line — server unreachable or silent, credentials refused, RBAC forbids, Foo CRD
 * missing — and install the CRD when asked.
 */
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CustomObjectsApi,
  VersionApi,
  type ConfigurationOptions,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from "@kubernetes/client-node";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "@loopscope/controller";
import { FOO_CRD } from "@loopscope/apiserver";
import { withSignal } from "@loopscope/controller";
import { noAnswerReason } from "./request-failure.ts";

/**
 * How long one preflight request may go unanswered. A refused connection fails at once; a silent
 * one (a firewall that drops packets, a VPN that is off) would otherwise wait for ever.
 */
export const ANSWER_WITHIN_MS = 10_000;

/** A failure worth exactly one line to the user. */
export class ClusterError extends Error {
  override name = "ClusterError";
}

interface Failure {
  /** The HTTP status the server answered with. */
  code?: number;
  text: string;
  /** No HTTP answer came (refused, reset, DNS …), as opposed to one loopscope could not use. */
  unanswered?: boolean;
}

function describe(err: unknown): Failure {
  const e = err as { code?: unknown; body?: unknown; message?: string; cause?: { code?: string } };
  if (typeof e?.code === "number") {
    let msg: string | undefined;
    try {
      const body =
        typeof e.body === "string"
          ? (JSON.parse(e.body) as { message?: string })
          : (e.body as { message?: string });
      msg = body?.message;
    } catch {
      msg = undefined;
    }
    return { code: e.code, text: msg ?? `HTTP ${e.code}` };
  }
  const code = typeof e?.code === "string" ? e.code : e?.cause?.code;
  const first = (e?.message ?? String(err)).split("\n")[0] ?? "";
  return {
    text: code && !first.includes(code) ? `${code}: ${first}` : first,
    unanswered: noAnswerReason(err) !== undefined,
  };
}

/**
 * Checks that the kubeconfig's cluster can run the controller; returns what it changed there to
 * make it so, in sentences for the user (the Foo CRD it created with `installCrd`).
 */
export async function checkCluster(
  kc: KubeConfig,
  opts: { installCrd?: boolean; answerWithinMs?: number } = {},
): Promise<string[]> {
  const changed: string[] = [];
  const server = kc.getCurrentCluster()?.server ?? "(no server in kubeconfig)";
  const user = kc.getCurrentUser()?.name ?? "(no user)";
  const ask = asker(server, opts.answerWithinMs ?? ANSWER_WITHIN_MS);
  try {
    await ask((o) => kc.makeApiClient(VersionApi).getCode({}, o));
  } catch (err) {
    if (err instanceof ClusterError) throw err;
    const d = describe(err);
    if (d.code === 401)
      throw new ClusterError(
        `${server} refused the credentials of user "${user}" (401 Unauthorized)`,
      );
    if (d.code === undefined) throw notAStatus(d, server);
    // Some clusters forbid /version to anonymous users; the list checks below say more.
  }

  try {
    await ask((o) => listFoos(kc, o));
  } catch (err) {
    if (err instanceof ClusterError) throw err;
    const d = describe(err);
    if (d.code === 404) {
      if (!opts.installCrd) {
        throw new ClusterError(
          `the Foo CRD (${FOO_PLURAL}.${FOO_GROUP}) is not installed on ${server}; rerun with --install-crd to create it`,
        );
      }
      if (await installCrd(kc, server, ask))
        changed.push(`created the Foo CRD (${FOO_PLURAL}.${FOO_GROUP}) on ${server}`);
    } else {
      throw forbiddenOr(d, `list ${FOO_PLURAL}.${FOO_GROUP}`, server, user);
    }
  }
  try {
    await ask((o) => kc.makeApiClient(AppsV1Api).listDeploymentForAllNamespaces({ limit: 1 }, o));
  } catch (err) {
    if (err instanceof ClusterError) throw err;
    throw forbiddenOr(describe(err), "list deployments.apps in all namespaces", server, user);
  }
  return changed;
}

type Ask = <T>(call: (options: ConfigurationOptions) => Promise<T>) => Promise<T>;

/** Makes API calls that give up after `ms` unanswered, as a ClusterError saying so. */
function asker(server: string, ms: number): Ask {
  return async (call) => {
    const deadline = AbortSignal.timeout(ms);
    try {
      return await call(withSignal(deadline));
    } catch (err) {
      if (deadline.aborted) {
        // In tenths: what is left of a run's --timeout (0.999 s) is said as 1 s.
        const s = Number((ms / 1000).toFixed(1));
        throw new ClusterError(`the API server at ${server} did not answer within ${s} s`);
      }
      throw err;
    }
  };
}

function listFoos(kc: KubeConfig, options: ConfigurationOptions): Promise<unknown> {
  return kc
    .makeApiClient(CustomObjectsApi)
    .listClusterCustomObject(
      { group: FOO_GROUP, version: FOO_VERSION, plural: FOO_PLURAL, limit: 1 },
      options,
    );
}

/**
 * A failure without an HTTP status. "Cannot reach" only when no answer came: a server that did
 * answer (with a page that is no Kubernetes API's, say), or a request that never left (a client
 * refusal), must not send the user looking for a network fault.
 */
function notAStatus(d: Failure, server: string): ClusterError {
  return new ClusterError(
    d.unanswered
      ? `cannot reach the API server at ${server}: ${d.text}`
      : `a request to the API server at ${server} failed: ${d.text}`,
  );
}

function forbiddenOr(d: Failure, what: string, server: string, user: string): ClusterError {
  if (d.code === 403)
    return new ClusterError(`RBAC: user "${user}" may not ${what} on ${server}: ${d.text}`);
  if (d.code === 401)
    return new ClusterError(
      `${server} refused the credentials of user "${user}" (401 Unauthorized)`,
    );
  if (d.code === undefined) return notAStatus(d, server);
  return new ClusterError(`cannot ${what} on ${server}: ${d.text}`);
}

/**
 * Creates the Foo CRD and waits for Foos to be served; true when it created it. A CRD object
 * already there (409) is someone else's: Foos not served by it is said as such, never as ours.
 */
async function installCrd(kc: KubeConfig, server: string, ask: Ask): Promise<boolean> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  let created = true;
  try {
    await ask((o) => api.createCustomResourceDefinition({ body: FOO_CRD as never }, o));
  } catch (err) {
    if (err instanceof ClusterError) throw err;
    const d = describe(err);
    if (d.code !== 409)
      throw forbiddenOr(
        d,
        "create customresourcedefinitions",
        server,
        kc.getCurrentUser()?.name ?? "",
      );
    created = false;
    const crd = await readFooCrd(api, ask);
    const unserved = crd && unservedVersion(crd);
    if (unserved) throw notServing(server, unserved);
  }
  // Established takes a moment; the Foo list starts answering when it is.
  let last = "";
  for (let i = 0; i < 100; i++) {
    try {
      await ask((o) => listFoos(kc, o));
      return created;
    } catch (err) {
      if (err instanceof ClusterError) throw err;
      last = describe(err).text;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (created)
    throw new ClusterError(
      `created the Foo CRD on ${server} but it did not become served within 10 s`,
    );
  const crd = await readFooCrd(api, ask);
  throw notServing(
    server,
    (crd && notEstablished(crd)) ?? `listing them still fails after 10 s: ${last}`,
  );
}

const FOO_CRD_NAME = `${FOO_PLURAL}.${FOO_GROUP}`;

/** The Foo CRD object, or undefined when it cannot be read (it only adds detail to a message). */
async function readFooCrd(
  api: ApiextensionsV1Api,
  ask: Ask,
): Promise<V1CustomResourceDefinition | undefined> {
  try {
    return await ask((o) => api.readCustomResourceDefinition({ name: FOO_CRD_NAME }, o));
  } catch (err) {
    if (err instanceof ClusterError) throw err;
    return undefined;
  }
}

/** Why a CRD object does not serve Foos at FOO_VERSION by its spec, or undefined. */
function unservedVersion(crd: V1CustomResourceDefinition): string | undefined {
  const served = crd.spec.versions.filter((v) => v.served).map((v) => v.name);
  if (served.includes(FOO_VERSION)) return undefined;
  return `${FOO_VERSION} is not among its served versions (${served.join(", ") || "none"})`;
}

/** The CRD's Established condition when it is not True, or undefined. */
function notEstablished(crd: V1CustomResourceDefinition): string | undefined {
  const c = crd.status?.conditions?.find((x) => x.type === "Established");
  if (c?.status === "True") return undefined;
  return c ? `Established: ${c.status}${c.message ? ` (${c.message})` : ""}` : "not Established";
}

function notServing(server: string, why: string): ClusterError {
  return new ClusterError(
    `the Foo CRD (${FOO_CRD_NAME}) exists on ${server} but does not serve ${FOO_GROUP}/${FOO_VERSION} ${FOO_PLURAL}: ${why}; check its versions and conditions with kubectl get crd ${FOO_CRD_NAME} -o yaml`,
  );
}
