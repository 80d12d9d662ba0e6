/**
 * Which Host headers the embedded API server answers: a loopback name, an IP literal, or the
 * name it was told to listen on. A page on another site that re-points its own DNS name at
 * 127.0.0.1 (DNS rebinding) sends that name as Host, and gets a 403 before anything is read or
 * written — the browser's same-origin rule cannot stop it, since to the browser it is the same
 * origin. No port check: the name alone defeats rebinding, and a port-forward or proxy in
 * front of the server may present its own port.
 */
import { isIP } from "node:net";

export function hostAllowed(host: string | undefined, bindHost: string): boolean {
  if (!host) return false;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== "/") return false;
  const name = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return name === "localhost" || isIP(name) !== 0 || name === bindHost.toLowerCase();
}
