/** HTTP calls to the server, with the page's token (react-query hooks for the views). */
import { useMutation, useQuery } from "@tanstack/react-query";
import {
  API,
  TOKEN_HEADER,
  type ActionRequest,
  type ActionResponse,
  type RunInfo,
} from "@loopscope/protocol";

export async function postAction(token: string, req: ActionRequest): Promise<ActionResponse> {
  let res: Response;
  try {
    res = await fetch(API.action.replace(/^\//, ""), {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: token },
      body: JSON.stringify(req),
    });
  } catch {
    // The browser's own words ("Failed to fetch", "NetworkError …") say nothing of why.
    throw new Error("loopscope's server did not answer: is it still running?");
  }
  let body: ActionResponse;
  try {
    body = (await res.json()) as ActionResponse;
  } catch {
    body = { ok: false, message: `HTTP ${res.status}` };
  }
  if (!res.ok || !body.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
  return body;
}

export function useAction(token: string | undefined) {
  return useMutation({
    mutationFn: (req: ActionRequest) => {
      if (!token) throw new Error("no server: actions need `loopscope up`");
      return postAction(token, req);
    },
  });
}

export function useRuns(token: string | undefined) {
  return useQuery({
    queryKey: ["runs"],
    enabled: token !== undefined,
    queryFn: async (): Promise<RunInfo[]> => {
      const res = await fetch(API.runs.replace(/^\//, ""), { headers: { [TOKEN_HEADER]: token! } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as RunInfo[];
    },
  });
}
