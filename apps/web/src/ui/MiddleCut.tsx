/**
 * Text that, short of room, loses its middle and keeps its end: "checkout-s…-canary", where
 * an ellipsis at the end left "checkout-s…" on every row of a family of names. CSS alone does it
 * (no measuring on each render): the head shrinks with an ellipsis, the tail keeps its width.
 * The two halves are drawn only (aria-hidden): laid out as two boxes, a screen reader read them
 * as two words ("exampl e-foo"). The whole text, visually hidden, is what it reads instead.
 */
export function MiddleCut({ text, className }: { text: string; className?: string }) {
  // The end tells names of one family apart ("-canary", "-02"); beyond 8 letters the head can.
  const tail = Math.min(8, Math.floor(text.length / 2));
  return (
    <span className={className ? `middle-cut ${className}` : "middle-cut"}>
      <span className="sr-only">{text}</span>
      <span className="head" aria-hidden="true">
        {text.slice(0, text.length - tail)}
      </span>
      <span className="tail" aria-hidden="true">
        {text.slice(text.length - tail)}
      </span>
    </span>
  );
}
