import { defineConfig, devices } from "@playwright/test";

// Debian's chromium: Playwright cannot download its own browsers on these machines.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  // A hung run fails the test command instead of holding CI to its limit.
  globalTimeout: 20 * 60_000,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    headless: true,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "debian-chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS },
      },
    },
  ],
});
