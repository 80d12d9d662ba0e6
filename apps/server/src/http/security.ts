/**
 * Who may talk to the dashboard server, decided per request.
 *
 * - Host: only a loopback name, an IP literal, or the name given to --host, on our port —
 *   a page on some other site that re-points its DNS name at 127.0.0.1 (DNS rebinding) is
 *   refused before it can read anything, the token-bearing index.html included.
 * - Origin: a browser always sends it on WebSocket upgrades and POSTs; when present it must be
 *   this server's own origin. Non-browser clients (tests, benches, curl) send none and rely on
 *   the token alone.
 * - Token: random per run. The owner token (full access) goes only into the index.html served
 *   to a loopback client; the share token (read-only) only into a page opened with ?share=<it>.
 *   Tokens are compared in constant time and never logged.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export type Access = "owner" | "reader" | "none";

export interface AccessPolicy {
  ownerToken: string;
  /** Present only with --share. */
  shareToken?: string;
  /** The --host value, accepted as a Host name besides loopback names and IP literals. */
  bindHost: string;
  /** The port actually listened on (known after listen). */
  port: number;
}

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export function accessOf(policy: AccessPolicy, token: string | null | undefined): Access {
  if (!token) return "none";
  if (same(token, policy.ownerToken)) return "owner";
  if (policy.shareToken && same(token, policy.shareToken)) return "reader";
  return "none";
}

/** Whether a Host header names this server in a way no rebinding page can. */
export function hostAllowed(policy: AccessPolicy, host: string | undefined): boolean {
  if (!host) return false;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (url.port !== String(policy.port) || url.username || url.pathname !== "/") return false;
  const name = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return name === "localhost" || isIP(name) !== 0 || name === policy.bindHost.toLowerCase();
}

/** Absent Origin passes (non-browser client); a present one must be ours exactly. */
export function originAllowed(
  policy: AccessPolicy,
  origin: string | undefined,
  host: string | undefined,
): boolean {
  if (origin === undefined) return true;
  return hostAllowed(policy, host) && origin === `http://${host}`;
}

export function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  const a = addr.replace(/^::ffff:/, "");
  return a === "::1" || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || isLoopbackAddress(host);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
