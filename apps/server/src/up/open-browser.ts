/** `--open`: hands the URL to xdg-open when it is installed; says so when it is not. */
import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";

export async function openBrowser(url: string, log: (line: string) => void): Promise<void> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const exe = join(dir, "xdg-open");
    if (
      await access(exe, constants.X_OK).then(
        () => true,
        () => false,
      )
    ) {
      const child = spawn(exe, [url], { stdio: "ignore", detached: true });
      child.on("error", () => log("could not start xdg-open; open the URL yourself"));
      child.unref();
      return;
    }
  }
  log("--open: xdg-open not found; open the URL yourself");
}
