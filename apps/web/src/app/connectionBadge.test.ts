import { describe, expect, it } from "vitest";
import type { ClusterReachability } from "@loopscope/protocol";
import { connectionBadge } from "./connectionBadge.ts";

// 15:02:11 on the clock of whoever runs the test, whatever its time zone.
const since = new Date(2026, 11, 4, 15, 2, 11).toISOString();
const down: ClusterReachability = {
  reachable: false,
  server: "https://10.0.0.7:6443",
  error: "connect ECONNREFUSED 10.0.0.7:6443",
  since,
};

describe("the top bar's connection badge", () => {
  it("says the cluster is unreachable while the socket is up but the cluster does not answer", () => {
    const badge = connectionBadge({ status: "open", reconnects: 2, cluster: down });
    expect(badge.text).toBe("cluster unreachable");
    expect(badge.look).toBe("cluster-unreachable");
    expect(badge.title).toContain(
      "https://10.0.0.7:6443 has not answered since 15:02:11: connect ECONNREFUSED 10.0.0.7:6443.",
    );
  });

  it("is back to connected once the cluster answers again", () => {
    expect(
      connectionBadge({ status: "open", reconnects: 0, cluster: { reachable: true } }),
    ).toEqual({ text: "connected", look: "open" });
  });

  it("speaks of the socket when the socket is what is down: the cluster's last word is stale", () => {
    expect(connectionBadge({ status: "reconnecting", reconnects: 1, cluster: down })).toEqual({
      text: "reconnecting · resumed ×1",
      look: "reconnecting",
    });
  });

  it("says the server is not answering when nothing answers at its address", () => {
    const badge = connectionBadge({ status: "reconnecting", reconnects: 0, serverAnswers: false });
    expect(badge.text).toBe("server not answering · retrying");
    expect(badge.look).toBe("closed");
    // While something answers (a socket refused by a live server), it is only reconnecting.
    expect(
      connectionBadge({ status: "reconnecting", reconnects: 0, serverAnswers: true }).text,
    ).toBe("reconnecting");
  });

  it("says the browser is offline, not the server silent, while its own network is down", () => {
    const badge = connectionBadge(
      { status: "reconnecting", reconnects: 0, serverAnswers: false },
      false,
    );
    expect(badge.text).toBe("offline · retrying");
    expect(badge.title).toContain("This browser is offline");
  });

  it("says the Foo API is gone while the cluster answers but no longer serves foos", () => {
    const badge = connectionBadge({
      status: "open",
      reconnects: 0,
      cluster: { reachable: true },
      fooApi: { served: false, since },
    });
    expect(badge.text).toBe("Foo API gone");
    expect(badge.look).toBe("foo-api-gone");
    expect(badge.title).toContain(
      "has not served foos.samplecontroller.k8s.io since 15:02:11: was the CRD deleted?",
    );
    expect(badge.title).toContain("kubectl apply -f public/manifests/crd.yaml brings it back");
    // Back: connected again. An unreachable cluster says that first (nothing answers at all).
    expect(connectionBadge({ status: "open", reconnects: 0, fooApi: { served: true } })).toEqual({
      text: "connected",
      look: "open",
    });
    expect(
      connectionBadge({
        status: "open",
        reconnects: 0,
        cluster: down,
        fooApi: { served: false, since },
      }).text,
    ).toBe("cluster unreachable");
  });

  it("says the informers are failing, and why, while the cluster refuses their lists and watches", () => {
    const at = new Date(2026, 11, 4, 15, 4, 0).toISOString();
    const failing = {
      failing: true as const,
      kinds: ["Foo", "Deployment"],
      error: "401 Unauthorized",
      retryInMs: 30_000,
      at,
      since,
    };
    const badge = connectionBadge({
      status: "open",
      reconnects: 0,
      cluster: { reachable: true },
      fooApi: { served: true },
      informers: failing,
    });
    expect(badge.text).toBe("informers failing: 401 Unauthorized");
    expect(badge.look).toBe("informers-failing");
    expect(badge.title).toContain(
      "The cluster has answered the controller's informers (Foo, Deployment) with 401 Unauthorized since 15:02:11",
    );
    expect(badge.title).toContain("They list again in 30 s (15:04:30)");
    // A long reason keeps the bar short: its code and name there, the whole in the hover text.
    const forbidden = '403 Forbidden: deployments.apps is forbidden: User "u" cannot watch';
    const rbac = connectionBadge({
      status: "open",
      reconnects: 0,
      informers: { ...failing, error: forbidden },
    });
    expect(rbac.text).toBe("informers failing: 403 Forbidden");
    expect(rbac.title).toContain(forbidden);
    // They list again: connected. An unreachable cluster says that first.
    expect(
      connectionBadge({ status: "open", reconnects: 0, informers: { failing: false } }),
    ).toEqual({ text: "connected", look: "open" });
    expect(
      connectionBadge({ status: "open", reconnects: 0, cluster: down, informers: failing }).text,
    ).toBe("cluster unreachable");
  });

  it("says the server restarted when it refuses the page's token", () => {
    const badge = connectionBadge({ status: "replaced", reconnects: 0, serverAnswers: true });
    expect(badge.text).toBe("server restarted");
    expect(badge.title).toContain("This page still shows the run before.");
  });
});
