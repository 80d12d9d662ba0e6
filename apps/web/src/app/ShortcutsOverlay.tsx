/**
 * The `?` overlay: every keyboard shortcut, grouped. A modal <dialog> (showModal): the page
 * behind is inert, so Tab stays in it and a click lands nowhere else; the page's own keys leave it
 * alone while it is open (ui/modal.ts). Esc, `?`, its button or a click outside closes it, and the
 * focus goes back where it was — the legend's `?` button, when that opened it.
 */
import { useEffect, useRef } from "react";
import { SHORTCUTS } from "./shortcuts.ts";

export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    // The dialog itself, not its first button: arrows and PageDown scroll it, and a screen reader
    // starts at its name.
    dialog.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener instanceof HTMLElement && opener !== document.body && opener.isConnected)
        opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcuts"
      aria-label="Keyboard shortcuts"
      data-testid="shortcuts"
      tabIndex={-1}
      // Esc: the page stays as it was (the dialog closes through onClose, as for the others).
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A click on the backdrop lands on the dialog itself; its content is all in the div.
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          onClose();
        } else if (e.key === "Tab") {
          // Round within the dialog: past its last control Chromium would leave for the browser's
          // own bar (or, headless, the page's body).
          const tabbable = [
            ...e.currentTarget.querySelectorAll<HTMLElement>(
              'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])',
            ),
          ].filter((el) => !el.matches(":disabled"));
          const first = tabbable[0];
          const last = tabbable[tabbable.length - 1];
          if (!first || !last) return;
          const at = document.activeElement;
          if (e.shiftKey ? at === first || at === e.currentTarget : at === last) {
            e.preventDefault();
            (e.shiftKey ? last : first).focus();
          }
        }
      }}
    >
      <div className="shortcuts-body">
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
    </dialog>
  );
}
