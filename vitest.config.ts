import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
