import { describe, expect, it } from "vitest";
import { parseFileArgs, UsageError } from "./args.ts";

const OPTIONS = { "hot-loop": { type: "string" }, port: { type: "string", short: "p" } } as const;

function usageMessage(argv: string[]): string {
  try {
    parseFileArgs(argv, OPTIONS);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`${argv.join(" ")} parsed`);
}

describe("parseFileArgs' usage errors", () => {
  it("say how to pass a value that starts with a dash", () => {
    expect(usageMessage(["f", "--hot-loop", "-3"])).toBe(
      '--hot-loop -3: a value that starts with "-" is written --hot-loop=-3',
    );
    expect(usageMessage(["-p", "-1"])).toBe(
      '-p -1: a value that starts with "-" is written --port=-1',
    );
  });

  it("name a mistyped flag as unknown, in one line", () => {
    expect(usageMessage(["f", "--hotloop", "3"])).toBe("unknown option --hotloop");
    expect(usageMessage(["-x"])).toBe("unknown option -x");
  });

  it("keep Node's first line for the rest", () => {
    expect(usageMessage(["--port"])).toMatch(/^Option '-p, --port <value>' argument missing$/);
  });
});
