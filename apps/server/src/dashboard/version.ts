/** The server's version, from apps/server/package.json. */
import { readFileSync } from "node:fs";

export const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;
