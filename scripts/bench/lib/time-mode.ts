/** Puts the dashboard's timeline in folded or linear time (the legend's switch), untimed. */
import type { Page } from "playwright-core";

export type Time = "folded" | "linear";

export async function useTime(page: Page, time: Time): Promise<void> {
  const timeline = page.getByTestId("timeline");
  if ((await timeline.getAttribute("data-time")) === time) return;
  await page.getByTestId(`time-${time}`).click();
  await page.waitForFunction(
    (t) => document.querySelector('[data-testid="timeline"]')?.getAttribute("data-time") === t,
    time,
  );
  // Two frames: the switch painted before anything is timed.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}
