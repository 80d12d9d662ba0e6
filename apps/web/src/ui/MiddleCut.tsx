/**
 * Text that, short of room, loses its middle and keeps its end: "checkout-s…-canary", where
 * an ellipsis at the end left "checkout-s…" on every row of a family of names. CSS alone does it
 * (no measuring on each render): the head shrinks with an ellipsis, the tail keeps its width.
 * Whole, the two halves read as one text (its textContent is the text).
 */
export function MiddleCut({ text, className }: { text: string; className?: string }) {
  // The end tells names of one family apart ("-canary", "-02"); beyond 8 letters the head can.
  const tail = Math.min(8, Math.floor(text.length / 2));
  return (
    <span className={className ? `middle-cut ${className}` : "middle-cut"}>
      <span className="head">{text.slice(0, text.length - tail)}</span>
      <span className="tail">{text.slice(text.length - tail)}</span>
    </span>
  );
}
