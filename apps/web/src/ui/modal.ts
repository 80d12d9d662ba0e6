/**
 * Whether a modal dialog (`<dialog>` opened with showModal(), such as the `?` shortcuts) is
 * open. The page's own keys — useKeyboard, the step-through's n / PageDown, presenter mode's
 * Esc — listen on the window, which sees the dialog's keys too: while one is open they leave
 * every key to it (Esc closes the dialog first, PageDown scrolls it).
 */
export function modalOpen(): boolean {
  return globalThis.document?.querySelector("dialog:modal") != null;
}
