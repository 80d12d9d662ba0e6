import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Most test files wait on real things (servers, kubectl, child processes, a watch's silence)
    // more than they compute: three at once on a 2-core machine take the unit run from ~300 s to
    // 166–191 s. Vitest's default is one fewer than the cores, which is one file at a time here.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: [
            "packages/*/src/**/*.test.{ts,tsx}",
            "apps/*/src/**/*.test.{ts,tsx}",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/node_modules/**", "**/*.browser.test.{ts,tsx}"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      "apps/web/vitest.browser.config.ts",
    ],
  },
});
