#!/usr/bin/env node
// Brings a machine with only Node 20 and npm to a working loopscope: pnpm, the workspace's
// dependencies, and (with --browser) Debian's chromium for the browser tests. Idempotent: each
// step checks first and skips what is already there. Uses only Node built-ins, since it runs
// before any dependency is installed.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const args = new Set(process.argv.slice(2));
const PNPM_VERSION = "12.23.0";

function have(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}
function step(title, cmd) {
  process.stderr.write(`\x1b[1m» ${title}\x1b[0m\n`);
  execSync(cmd, {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
  });
}

const pnpmVersion = have("pnpm")
  ? spawnSync("pnpm", ["--version"], { encoding: "utf8" }).stdout.trim()
  : "";
if (!pnpmVersion.startsWith("12.")) {
  step(`installing pnpm ${PNPM_VERSION}`, `npm i -g pnpm@${PNPM_VERSION}`);
}

if (args.has("--browser") && !existsSync("/usr/bin/chromium")) {
  if (process.getuid?.() === 0) {
    step(
      "installing Debian chromium (browser tests)",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null",
    );
  } else {
    process.stderr.write(
      "! /usr/bin/chromium is missing: run `sudo apt-get install -y chromium` for the browser tests\n",
    );
  }
}

step("installing dependencies", "pnpm install");
