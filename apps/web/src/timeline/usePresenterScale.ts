/**
 * The timeline's type scale: 1, or larger while presenter mode is on (<html data-presenter="on">,
 * set by the workshop's toggle) so a room reads the lanes from the back — more on a 1080-line
 * projector than on a 720-line one, where the lanes must still fit above the dock.
 */
import { useSyncExternalStore } from "react";

function read(): number {
  const root = globalThis.document?.documentElement;
  if (root?.dataset.presenter !== "on") return 1;
  return (globalThis.innerHeight ?? 0) >= 1000 ? 1.5 : 1.25;
}

function subscribe(onChange: () => void): () => void {
  const root = globalThis.document?.documentElement;
  if (!root) return () => {};
  const mo = new MutationObserver(onChange);
  mo.observe(root, { attributes: true, attributeFilter: ["data-presenter"] });
  globalThis.addEventListener("resize", onChange);
  return () => {
    mo.disconnect();
    globalThis.removeEventListener("resize", onChange);
  };
}

export function usePresenterScale(): number {
  return useSyncExternalStore(subscribe, read, () => 1);
}
