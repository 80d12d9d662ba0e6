/**
 * A button that can be off and keep the focus: a `disabled` button drops a keyboard user's focus
 * to <body> (pressed, an action's button is off while the action runs; the next Tab then starts
 * from the top of the page). This one is `aria-disabled`: screen readers say it is unavailable,
 * it stays in the Tab order and a press does nothing.
 */
import type { ButtonHTMLAttributes } from "react";

export function OffButton({
  off,
  onClick,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { off: boolean }) {
  return <button {...rest} aria-disabled={off || undefined} onClick={off ? undefined : onClick} />;
}
