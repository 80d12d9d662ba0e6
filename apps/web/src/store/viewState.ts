/**
 * What the user is looking at — selection, time window, playback — kept outside React so the
 * canvas renderer, panels, keyboard and URL all read and write one place. Nothing here holds trace
 * data: keys and seqs only name things in the TraceStore.
 */
export type Theme = "dark" | "light";
/** Folded time gives idle gaps a fixed width and every pass a readable one (timeline/fold.ts). */
export type TimeMode = "folded" | "linear";

export interface ViewState {
  /** Selected Foo keys, in the order their lane groups are stacked. */
  selectedKeys: string[];
  /** Visible time window, µs since epoch; undefined = fit everything. */
  window?: [number, number];
  /** seq of the selected event (details panel, causal arrows). */
  selectedSeq?: number;
  /** Key + index of the selected pass. */
  selectedPass?: { key: string; index: number };
  /** Replay: events after this time are not yet "arrived"; undefined = show all. */
  playhead?: number;
  playing: boolean;
  speed: number;
  /** Live: keep the window's right edge on the newest event. */
  follow: boolean;
  theme: Theme;
  search: string;
  timeMode: TimeMode;
  /** The selected Foos as five lanes on a time axis, or one column per pass (PassView). */
  timelineView: "lanes" | "passes";
  /**
   * Live: a scenario just started at this row of the store; the Foo its first note names is
   * selected once it comes (a burst's Foos are not the one selected before).
   */
  pickFooFromRow?: number;
}

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

export class ViewStore {
  private state: ViewState;
  private readonly listeners = new Set<() => void>();

  constructor(initial?: Partial<ViewState>) {
    this.state = {
      selectedKeys: [],
      playing: false,
      speed: 1,
      follow: true,
      theme: "dark",
      search: "",
      timeMode: "folded",
      timelineView: "lanes",
      ...initial,
    };
  }

  get = (): ViewState => this.state;

  set(patch: Partial<ViewState> | ((s: ViewState) => Partial<ViewState>)): void {
    const p = typeof patch === "function" ? patch(this.state) : patch;
    this.state = { ...this.state, ...p };
    for (const l of this.listeners) l();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  /** Click selects one key; with `extend` (ctrl/shift/⌘) toggles it in a multi-selection. */
  toggleKey(key: string, extend: boolean): void {
    this.set((s) => {
      if (!extend) return { selectedKeys: [key], selectedPass: undefined };
      const has = s.selectedKeys.includes(key);
      return {
        selectedKeys: has ? s.selectedKeys.filter((k) => k !== key) : [...s.selectedKeys, key],
      };
    });
  }
}
