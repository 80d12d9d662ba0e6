/** The legend: pass causes (colour + hatch + label) and the lane glyphs. */
import { PASS_CAUSES } from "@loopscope/trace";
import { causeStyle, OKABE_ITO, STAGE_COLOR } from "../ui/palette.ts";

export function Legend() {
  return (
    <div className="legend" data-testid="legend" aria-label="Legend">
      <span className="legend-title">passes:</span>
      {PASS_CAUSES.map((c) => {
        const s = causeStyle(c);
        return (
          <span key={c} className="legend-item" data-cause={c}>
            <span className={`swatch ${s.hatch ? "hatch" : ""}`} style={{ background: s.color }} />
            {s.label}
          </span>
        );
      })}
      <span className="legend-title">marks:</span>
      <span className="legend-item">
        <span className="dot" style={{ background: OKABE_ITO.skyBlue }} /> Foo event
      </span>
      <span className="legend-item">
        <span className="sq" style={{ background: OKABE_ITO.orange }} /> Deployment event
      </span>
      <span className="legend-item">
        <span className="diamond" style={{ borderColor: STAGE_COLOR.enqueue }} /> merged add
      </span>
      <span className="legend-item">
        <span className="sq" style={{ background: STAGE_COLOR.write }} /> write · ✕ failed
      </span>
    </div>
  );
}
