/**
 * newDeployment (sample-controller controller.go 388–421): the Deployment a Foo wants — name from
 * spec.deploymentName, the Foo as controlling owner, its replicas, one nginx container, labels
 * {app: nginx, controller: <foo name>}.
 */
import { FOO_GROUP, FOO_KIND, FOO_VERSION, type Deployment, type Foo } from "./types.ts";

export function newDeployment(foo: Foo): Deployment {
  const labels = { app: "nginx", controller: foo.metadata.name ?? "" };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: foo.spec.deploymentName,
      namespace: foo.metadata.namespace,
      ownerReferences: [
        {
          apiVersion: `${FOO_GROUP}/${FOO_VERSION}`,
          kind: FOO_KIND,
          name: foo.metadata.name ?? "",
          uid: foo.metadata.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: foo.spec.replicas ?? undefined,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: "nginx", image: "nginx:latest" }] },
      },
    },
  };
}
