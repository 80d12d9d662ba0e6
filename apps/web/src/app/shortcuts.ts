/**
 * The dashboard's keyboard shortcuts, as the `?` overlay lists them. useKeyboard.ts handles
 * them; this list is what people read, so it says what each does, not how.
 */
export interface Shortcut {
  keys: string[];
  does: string;
}

export const SHORTCUTS: readonly { group: string; items: readonly Shortcut[] }[] = [
  {
    group: "Move",
    items: [
      { keys: ["space"], does: "play / pause the replay" },
      {
        keys: ["←", "→"],
        does: "previous / next event of the selected Foo (from the selected pass, if one is; else from the edge of the time shown)",
      },
      { keys: ["[", "]"], does: "previous / next pass" },
      { keys: ["f"], does: "fit the selected Foos' whole life" },
      {
        keys: ["c"],
        does: "zoom to the creation, or the initial list of a Foo that existed before the run (first event → quiescent)",
      },
      // What presentation clickers send: a presenter reads them here (StepThrough.tsx).
      { keys: ["n", "PageDown"], does: "Workshop step-through: next step" },
      { keys: ["p", "PageUp"], does: "Workshop step-through: the step before" },
    ],
  },
  {
    group: "View",
    items: [
      { keys: ["t"], does: "folded ⇄ linear time" },
      { keys: ["p"], does: "lanes ⇄ pass-by-pass view (in the step-through: the step before)" },
      {
        keys: ["+", "−"],
        does: "zoom the timeline in / out (about the selected event or pass, else the middle; = zooms in too)",
      },
      { keys: ["shift", "←", "→"], does: "pan the timeline earlier / later" },
      { keys: ["wheel"], does: "zoom the timeline" },
      { keys: ["drag"], does: "pan the timeline" },
      { keys: ["shift", "wheel"], does: "scroll the lanes" },
      { keys: ["ctrl / ⌘", "click"], does: "stack a second Foo's lanes" },
    ],
  },
  {
    group: "Find",
    items: [
      { keys: ["/"], does: "filter the objects" },
      {
        keys: ["↑", "↓"],
        does: "choose a Foo, once the objects list has the focus (Tab to it, or click a row)",
      },
      { keys: ["shift", "↑", "↓"], does: "in the objects list: stack the next Foo's lanes too" },
      {
        keys: ["ctrl / ⌘", "↑", "↓"],
        does: "in the objects list: move to a Foo without choosing it",
      },
      {
        keys: ["ctrl / ⌘", "space"],
        does: "in the objects list: stack (or unstack) the Foo moved to",
      },
      { keys: ["Esc"], does: "clear the selection (leave presenter mode first)" },
      { keys: ["?"], does: "show / hide these shortcuts" },
    ],
  },
];
