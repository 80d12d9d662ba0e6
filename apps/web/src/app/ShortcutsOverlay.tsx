/** The `?` overlay: every keyboard shortcut, grouped. Esc, `?` or a click outside closes it. */
import { useEffect, useRef } from "react";
import { SHORTCUTS } from "./shortcuts.ts";

export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    // Caught before the dashboard's own keys: Esc closes the overlay and does nothing else.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" && e.key !== "?") return;
      e.preventDefault();
      e.stopImmediatePropagation();
      onClose();
    };
    globalThis.addEventListener("keydown", onKey, { capture: true });
    return () => globalThis.removeEventListener("keydown", onKey, { capture: true });
  }, [onClose]);
  return (
    <div className="overlay-backdrop" onClick={onClose}>
      <div
        ref={ref}
        className="shortcuts"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts"
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <header>
          <h2>Keyboard shortcuts</h2>
          <button onClick={onClose} aria-label="Close">
            Esc
          </button>
        </header>
        <div className="shortcut-groups">
          {SHORTCUTS.map((g) => (
            <section key={g.group}>
              <h3>{g.group}</h3>
              <dl>
                {g.items.map((s) => (
                  <div key={s.does} className="shortcut">
                    <dt>
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && " "}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </dt>
                    <dd>{s.does}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
