import { describe, expect, it } from "vitest";
import { FIELD_TYPES } from "../event-fields.ts";
import { wideEvent } from "./row-decoder.ts";

describe("RowDecoder's reused event", () => {
  it("has every field of the field table but raw, and extra", () => {
    const table = Object.keys(FIELD_TYPES).filter((f) => f !== "raw");
    expect(Object.keys(wideEvent()).sort()).toEqual([...table, "extra"].sort());
  });
});
