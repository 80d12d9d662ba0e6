/**
 * What presenter mode must show the room at once (docs/workshop.md): the five lanes above the
 * dock, the whole narration and the whole machinery diagram on the screen, with nothing scrolled,
 * and the diagram's text big enough to read from the back.
 */
import { expect } from "@playwright/test";
import type { Page } from "playwright-core";
import { readGeometry } from "./timeline-geometry.ts";

export interface PresenterFit {
  /** The smallest type the diagram draws, in CSS px (its font size × the SVG's scale). */
  diagramText: number;
}

export async function expectPresenterFits(page: Page, where: string): Promise<PresenterFit> {
  const view = page.viewportSize()!;
  await expect(page.locator(".timeline-hint"), `${where}: lanes scroll`).toHaveCount(0);
  const lanes = (await page.getByTestId("timeline").boundingBox())!;
  const dock = (await page.getByTestId("workshop").boundingBox())!;
  expect(lanes.y + lanes.height, `${where}: the lanes end above the dock`).toBeLessThanOrEqual(
    dock.y + 1,
  );
  // On a 1000-line screen the lanes have their whole ×1.5 height (30 px ×1.5), not squeezed.
  if (view.height >= 1000) {
    const names = (await readGeometry(page)).labels.filter((l) => l.kind === "lane");
    expect(names.length, `${where}: lane names drawn`).toBeGreaterThanOrEqual(5);
    expect(names[1]!.y - names[0]!.y, `${where}: a lane's height`).toBeGreaterThanOrEqual(44);
  }
  // Nothing scrolled: not the dock's body, not the narration inside it.
  const scrollers = [
    [".workshop-body", "the dock"],
    ['[data-testid="narration"]', "the narration"],
  ];
  for (const [sel, what] of scrollers) {
    const [scroll, client, top] = await page
      .locator(sel)
      .evaluate((e) => [e.scrollHeight, e.clientHeight, e.scrollTop]);
    // Not a pixel over: a box one pixel short shows its scroll bar.
    expect(scroll, `${where}: ${what} scrolls`).toBeLessThanOrEqual(client);
    expect(top, `${where}: ${what} is scrolled`).toBe(0);
  }
  const inView = (b: { x: number; y: number; width: number; height: number }, what: string) => {
    expect(b.x, `${where}: ${what} left`).toBeGreaterThanOrEqual(-0.5);
    expect(b.y, `${where}: ${what} top`).toBeGreaterThanOrEqual(dock.y - 0.5);
    expect(b.x + b.width, `${where}: ${what} right`).toBeLessThanOrEqual(view.width + 0.5);
    expect(b.y + b.height, `${where}: ${what} bottom`).toBeLessThanOrEqual(view.height + 0.5);
  };
  inView((await page.getByTestId("narration").boundingBox())!, "the narration");
  inView((await page.locator(".narration-text").boundingBox())!, "the narration's text");
  // The diagram's element and what it draws: every box, arrow, the echo path and its label.
  const diagram = page.getByTestId("machinery");
  inView((await diagram.boundingBox())!, "the diagram");
  const drawn = await diagram.evaluate((svg) => {
    const r = [...svg.querySelectorAll(".box, .flow, .echo, .echo-label")].map((e) =>
      e.getBoundingClientRect(),
    );
    const x = Math.min(...r.map((b) => b.left));
    const y = Math.min(...r.map((b) => b.top));
    return {
      x,
      y,
      width: Math.max(...r.map((b) => b.right)) - x,
      height: Math.max(...r.map((b) => b.bottom)) - y,
    };
  });
  inView(drawn, "the diagram's drawing");
  const diagramText = await diagram.evaluate((svg) => {
    const scale = (svg as SVGSVGElement).getScreenCTM()!.a;
    const sizes = [...svg.querySelectorAll("text")]
      .filter((t) => t.textContent)
      .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    return Math.min(...sizes);
  });
  return { diagramText };
}
