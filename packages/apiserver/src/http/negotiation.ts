/** Content negotiation from the Accept header: Table output and aggregated discovery. */

function mediaRanges(accept: string | undefined): { type: string; params: Map<string, string> }[] {
  return (accept ?? "")
    .split(",")
    .map((part) => {
      const [type, ...params] = part.split(";").map((s) => s.trim());
      return {
        type: type.toLowerCase(),
        params: new Map(
          params.map((p) => {
            const [k, v = ""] = p.split("=");
            return [k.trim(), v.trim()] as [string, string];
          }),
        ),
      };
    })
    .filter((r) => r.type !== "");
}

/** `kubectl get` asks for `application/json;as=Table;v=v1;g=meta.k8s.io` (v1beta1 also served). */
export function wantsTable(accept: string | undefined): boolean {
  return mediaRanges(accept).some(
    (r) =>
      r.type === "application/json" &&
      r.params.get("as") === "Table" &&
      r.params.get("g") === "meta.k8s.io",
  );
}

export type DiscoveryVersion = "v2" | "v2beta1";

/** The first aggregated-discovery version the client lists that we serve; undefined = legacy. */
export function aggregatedDiscovery(accept: string | undefined): DiscoveryVersion | undefined {
  for (const r of mediaRanges(accept)) {
    if (r.type !== "application/json" || r.params.get("as") !== "APIGroupDiscoveryList") continue;
    if (r.params.get("g") !== "apidiscovery.k8s.io") continue;
    const v = r.params.get("v");
    if (v === "v2" || v === "v2beta1") return v;
  }
  return undefined;
}

export function aggregatedContentType(v: DiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
}
