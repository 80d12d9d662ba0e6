/**
 * The `loopscope` CLI. Each command lives in commands/<name>.ts and exports
 * `run(argv: string[]): Promise<number>` (the exit code) and `usage: string`.
 * Exit codes everywhere: 0 success, 1 unreadable input or runtime failure (one-line reason), 2 usage.
 */
import { readFileSync } from "node:fs";
import { commandTable } from "./commands/table.ts";
import { typedInDirectory } from "./cli/typed-in.ts";

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    // Asked for, it is the output (`loopscope --help | less`); a command missing, it is the error.
    printHelp(name ? process.stdout : process.stderr);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`loopscope ${version()}\n`);
    return 0;
  }
  const entry = commandTable[name];
  if (!entry) {
    process.stderr.write(`loopscope: unknown command "${name}"\n\n`);
    printHelp(process.stderr);
    return 2;
  }
  const mod = await entry.load();
  // Every command's help is its usage text, printed here so no command parses --help itself.
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(mod.usage.endsWith("\n") ? mod.usage : `${mod.usage}\n`);
    return 0;
  }
  return mod.run(rest);
}

function printHelp(to: NodeJS.WriteStream): void {
  const lines = Object.entries(commandTable).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
  to.write(
    `usage: loopscope <command> [options]\n\ncommands:\n${lines.join("\n")}\n\n` +
      `loopscope <command> --help says more; loopscope --version prints the version.\n`,
  );
}

/** The version of apps/server's package, which is the CLI's. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

// A reader that stops reading (`loopscope stats FILE --json | head`) closes the pipe: the output
// is no longer wanted, which is not a failure — end quietly, as grep or cat do. Any other write
// error (a full disk behind `> file`) is one line and exit 1, never a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") process.stderr.write(`loopscope: stdout: ${err.message}\n`);
  process.exit(err.code === "EPIPE" ? 0 : 1);
});

const here = typedInDirectory(process.env, process.cwd());
if (here !== undefined) process.chdir(here);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`loopscope: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
