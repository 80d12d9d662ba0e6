import { describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  FOO_API_GONE,
  type ClusterReachability,
  type FooApiPresence,
  type ObjectsSnapshot,
  type ServerInfo,
} from "@loopscope/protocol";
import { ViewStore } from "../store/viewState.ts";
import { LiveActions } from "./LiveActions.tsx";
import { clusterFoos } from "./clusterFoos.ts";

const info: ServerInfo = {
  mode: "live",
  version: "test",
  cluster: { kind: "kubeconfig", server: "https://10.0.0.1:6443", context: "lab" },
  lastSeq: 0,
  readOnly: false,
  scenarios: [
    { name: "create-foo", title: "Create one Foo", teaches: "one create, several passes" },
  ],
  lessons: { hotLoopBug: false, idempotentStatus: false },
};

const BUTTONS = ["action-create", "action-scale", "action-delete", "action-scenario"];

function renderActions(
  cluster: ClusterReachability | undefined,
  more: {
    connected?: boolean;
    objects?: ObjectsSnapshot;
    fooApi?: FooApiPresence;
    fooDeleted?: boolean;
  } = {},
) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <LiveActions
        token="t"
        info={info}
        view={new ViewStore()}
        cluster={cluster}
        fooApi={more.fooApi}
        connected={more.connected ?? true}
        foos={more.objects && clusterFoos(more.objects)}
        fooDeleted={more.fooDeleted}
      />
    </QueryClientProvider>,
  );
}

describe("live actions", () => {
  it("are off while the cluster does not answer, saying why on each button", async () => {
    const down: ClusterReachability = {
      reachable: false,
      server: "https://10.0.0.1:6443",
      error: "no answer within 3 s",
      since: "2026-12-06T13:00:00.000Z",
    };
    const screen = await renderActions(down);
    await screen.getByTestId("scenario").selectOptions("create-foo");
    for (const id of BUTTONS) {
      const b = screen.getByTestId(id);
      await expect.element(b).toBeDisabled();
      await expect
        .element(b)
        .toHaveAttribute(
          "title",
          "https://10.0.0.1:6443 is not answering (no answer within 3 s): no action can reach it",
        );
    }
  });

  it("are off while the cluster does not serve the Foo API (its CRD deleted), saying why and how to bring it back", async () => {
    const fooApi: FooApiPresence = { served: false, since: "2026-12-06T13:00:00.000Z" };
    const screen = await renderActions({ reachable: true }, { fooApi });
    await screen.getByTestId("scenario").selectOptions("create-foo");
    for (const id of BUTTONS) {
      await expect.element(screen.getByTestId(id)).toBeDisabled();
      await expect.element(screen.getByTestId(id)).toHaveAttribute("title", FOO_API_GONE);
    }
    expect(FOO_API_GONE).toContain("kubectl apply -f public/manifests/crd.yaml");
    // A tooltip shows markup as it is: no Markdown backticks around the command.
    expect(FOO_API_GONE).not.toContain("`");
  });

  it("are off while loopscope's server is not connected", async () => {
    const screen = await renderActions(undefined, { connected: false });
    await screen.getByTestId("scenario").selectOptions("create-foo");
    for (const id of BUTTONS) {
      await expect.element(screen.getByTestId(id)).toBeDisabled();
      await expect
        .element(screen.getByTestId(id))
        .toHaveAttribute("title", "loopscope's server is not connected: no action can reach it");
    }
  });

  it("scale and delete are off while there is no example-foo", async () => {
    const none = await renderActions(undefined, { objects: { atSeq: 3, objects: [] } });
    await expect.element(none.getByTestId("action-create")).toBeEnabled();
    for (const id of ["action-scale", "action-delete"]) {
      await expect.element(none.getByTestId(id)).toBeDisabled();
      await expect
        .element(none.getByTestId(id))
        .toHaveAttribute("title", "there is no example-foo yet: create it first");
    }
  });

  it("scale and delete are off once the trace saw example-foo deleted (the proxy: no snapshot)", async () => {
    const gone = await renderActions(undefined, { fooDeleted: true });
    await expect.element(gone.getByTestId("action-create")).toBeEnabled();
    for (const id of ["action-scale", "action-delete"]) {
      await expect.element(gone.getByTestId(id)).toBeDisabled();
      await expect
        .element(gone.getByTestId(id))
        .toHaveAttribute("title", "example-foo was deleted: create it first");
    }
  });

  it("scale and delete are on once there is an example-foo", async () => {
    const foo = {
      kind: "Foo" as const,
      namespace: "default",
      name: "example-foo",
      resourceVersion: "7",
    };
    const one = await renderActions(undefined, { objects: { atSeq: 9, objects: [foo] } });
    for (const id of ["action-create", "action-scale", "action-delete"])
      await expect.element(one.getByTestId(id)).toBeEnabled();
  });

  it("keep the keyboard's focus on a pressed button while its action runs and after", async () => {
    const screen = await renderActions(undefined, { fooApi: { served: true } });
    const create = screen.getByTestId("action-create").element() as HTMLButtonElement;
    const lost: string[] = [];
    create.addEventListener("blur", () => lost.push(document.activeElement?.tagName ?? "none"));
    create.focus();
    await userEvent.keyboard("{Enter}");
    // The request goes to the test page's server, which has no such API: the action fails.
    await expect.element(screen.getByTestId("action-error")).toBeInTheDocument();
    expect(lost).toEqual([]);
    expect(document.activeElement).toBe(create);
    screen.unmount();
  });

  it("give the focus back to the pressed button when its note's ✕ takes the note away", async () => {
    const screen = await renderActions(undefined, { fooApi: { served: true } });
    const create = screen.getByTestId("action-create").element() as HTMLButtonElement;
    create.focus();
    await userEvent.keyboard("{Enter}");
    const dismiss = screen.getByRole("button", { name: "Dismiss the error" });
    await expect.element(dismiss).toBeInTheDocument();
    (dismiss.element() as HTMLButtonElement).focus();
    await userEvent.keyboard("{Enter}");
    await expect.element(screen.getByTestId("action-error")).not.toBeInTheDocument();
    expect(document.activeElement).toBe(create);
    screen.unmount();
  });

  // Last: a test after one that unmounts finds no element (vitest-browser-react's cleanup).
  it("are on while it answers and serves the Foo API, and on the embedded cluster (no reachability heard)", async () => {
    for (const cluster of [{ reachable: true } as const, undefined]) {
      const screen = await renderActions(cluster, { fooApi: { served: true } });
      await screen.getByTestId("scenario").selectOptions("create-foo");
      for (const id of BUTTONS) {
        await expect.element(screen.getByTestId(id)).toBeEnabled();
        await expect.element(screen.getByTestId(id)).not.toHaveAttribute("title");
      }
      screen.unmount();
    }
  });
});
