/** A dashboard action POSTed as the page posts it, with the owner's token: its status and message. */
import { API, TOKEN_HEADER } from "@loopscope/protocol";

export async function postAction(
  server: { url: string; tokens: { owner: string } },
  body: object,
): Promise<{ status: number; message?: string }> {
  const r = await fetch(new URL(API.action, server.url), {
    method: "POST",
    headers: { "content-type": "application/json", [TOKEN_HEADER]: server.tokens.owner },
    body: JSON.stringify(body),
  });
  return { status: r.status, ...((await r.json()) as { message?: string }) };
}
