import { describe, expect, it } from "vitest";
import { parseApiRequest, targetOf } from "./api-path.ts";

describe("parseApiRequest", () => {
  it("reads group, version, resource, namespace, name, subresource and verb", () => {
    expect(
      parseApiRequest(
        "PUT",
        "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/example-foo/status",
      ),
    ).toEqual({
      group: "samplecontroller.k8s.io",
      version: "v1alpha1",
      resource: "foos",
      namespace: "default",
      name: "example-foo",
      subresource: "status",
      verb: "update",
    });
    expect(parseApiRequest("GET", "/api/v1/namespaces/kube-system")).toEqual({
      group: "",
      version: "v1",
      resource: "namespaces",
      name: "kube-system",
      verb: "get",
    });
    expect(parseApiRequest("GET", "/api/v1/namespaces")?.verb).toBe("list");
    expect(parseApiRequest("POST", "/apis/apps/v1/namespaces/d/deployments")).toMatchObject({
      resource: "deployments",
      namespace: "d",
      verb: "create",
    });
    expect(parseApiRequest("DELETE", "/apis/apps/v1/namespaces/d/deployments")?.verb).toBe(
      "deletecollection",
    );
  });

  it("knows a watch by its query or the legacy /watch/ prefix", () => {
    expect(
      parseApiRequest("GET", "/apis/apps/v1/deployments?watch=true&resourceVersion=5"),
    ).toMatchObject({
      resource: "deployments",
      verb: "watch",
    });
    expect(
      parseApiRequest("GET", "/apis/apps/v1/deployments?allowWatchBookmarks=true&watch=1")?.verb,
    ).toBe("watch");
    expect(parseApiRequest("GET", "/api/v1/watch/namespaces/d/events")).toMatchObject({
      resource: "events",
      namespace: "d",
      verb: "watch",
    });
    expect(parseApiRequest("GET", "/apis/apps/v1/deployments?watch=false")?.verb).toBe("list");
  });

  it("is undefined for what is not a resource request", () => {
    for (const url of [
      "/version",
      "/api",
      "/apis",
      "/apis/apps",
      "/apis/apps/v1",
      "/openapi/v3",
      "/healthz",
      "/api/v1/%zz",
    ])
      expect(parseApiRequest("GET", url)).toBeUndefined();
    expect(parseApiRequest("OPTIONS", "/api/v1/pods")).toBeUndefined();
  });

  it("names write targets as the trace does", () => {
    const r = parseApiRequest("POST", "/apis/apps/v1/namespaces/default/deployments")!;
    expect(targetOf(r, "example-foo")).toBe("deployments/default/example-foo");
    const s = parseApiRequest(
      "PUT",
      "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/f/status",
    )!;
    expect(targetOf(s, undefined)).toBe("foos/default/f/status");
    expect(targetOf(parseApiRequest("DELETE", "/api/v1/namespaces/x")!, undefined)).toBe(
      "namespaces/x",
    );
  });
});
