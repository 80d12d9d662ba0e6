/**
 * A write refused for anything but a conflict (here 401: credentials rejected mid-run) is not
 * drawn or told as the legend's "✕ 409 — conflict": its mark has its own colour, which the legend
 * names, and its label says its own code.
 */
import { expect, it } from "vitest";
import { render } from "vitest-browser-react";
import "../ui/styles.css";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { FAILED_WRITE_COLOR, OKABE_ITO } from "../ui/palette.ts";
import { Legend } from "./Legend.tsx";
import { markStyle } from "./marks.ts";

const WRITE = `"stage":"write","key":"default/example-foo","verb":"updateStatus","target":"foos/default/example-foo/status"`;
const TRACE = [
  `{"loopscope":"trace","version":1,"source":"live","created":"2026-12-07T22:51:21.865Z","cluster":"kubeconfig"}`,
  `{${WRITE},"code":401,"reason":"Unauthorized","changed":false,"ts":1796683911978699,"seq":1}`,
  `{${WRITE},"code":409,"reason":"Conflict","ts":1796683911998501,"seq":2}`,
].join("\n");

it("a 401 write's mark is not the 409's, the legend names it, and its label says 401", async () => {
  const { store } = sessionFromText(TRACE, "run.jsonl");
  const [unauthorized, conflict] = [store.rowOfSeq(1), store.rowOfSeq(2)].map((row) =>
    markStyle(store, row),
  );
  expect(conflict).toMatchObject({ glyph: "cross", color: OKABE_ITO.vermillion });
  expect(unauthorized).toEqual({
    glyph: "cross",
    color: FAILED_WRITE_COLOR,
    label: "updateStatus 401",
  });
  expect(unauthorized!.color).not.toBe(conflict!.color);

  const screen = await render(<Legend view={new ViewStore()} onHelp={() => {}} />);
  const failed = screen.getByTestId("legend-failed-write");
  await expect.element(failed).toHaveTextContent("✕ other error");
  await expect
    .element(failed)
    .toHaveAttribute(
      "title",
      "a write refused for anything but a conflict (401, 403, 500 …): its code is in its label and tooltip",
    );
  // Drawn apart from the 409's vermillion in the legend too.
  const colorOf = (id: string) =>
    getComputedStyle(document.querySelector(`[data-testid=${id}] .cross`)!).color;
  expect(colorOf("legend-failed-write")).not.toBe(colorOf("legend-409"));
});
