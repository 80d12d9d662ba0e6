/**
 * The server injects this page's token into the served index.html as
 *   <meta name="loopscope-token" content="…">
 * (protocol: TOKEN_META). Every /api call sends it in the `x-loopscope-token` header and the
 * WebSocket URL carries `?token=`. No meta tag ⇒ the page is statically hosted: replay only.
 */
import { TOKEN_META } from "@loopscope/protocol";

export const TOKEN_META_NAME = TOKEN_META;

export function readToken(doc: Document = document): string | undefined {
  const el = doc.querySelector(`meta[name="${TOKEN_META_NAME}"]`);
  const v = el?.getAttribute("content")?.trim();
  // An unreplaced placeholder (dev server) is not a token.
  return v && !v.startsWith("%") ? v : undefined;
}
