/**
 * Kubernetes' short human durations ("5s", "3m10s", "2d"), as kubectl shows them in AGE columns.
 * The server formats them (kubectl prints the cell verbatim). Same thresholds as apimachinery's
 * util/duration.HumanDuration.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** Age of an object from its creationTimestamp, "<unknown>" when absent. */
export function age(creationTimestamp: string | undefined, nowMs: number): string {
  if (!creationTimestamp) return "<unknown>";
  const t = Date.parse(creationTimestamp);
  return Number.isNaN(t) ? "<unknown>" : humanDuration(nowMs - t);
}
