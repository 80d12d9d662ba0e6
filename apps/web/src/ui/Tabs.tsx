/**
 * A tab list and its panel, as screen readers and keyboard users expect tabs (the WAI-ARIA tabs
 * pattern): only the selected tab is in the Tab order, ←/→ (Home/End) select the previous/next
 * tab and focus it, and the panel names the tab that shows it. The arrows a tab takes are not the
 * page's (useKeyboard leaves a key whose default was prevented): on a tab, → is the next tab, not
 * the next event. The list and the panel are two parts because they are apart on the page (the
 * workshop's tabs are in its bar, the panel below it); `useTabIds` ties them together.
 */
import { useId, type ReactNode, type Ref } from "react";

export interface TabIds {
  tab: (id: string) => string;
  panel: string;
}

/** The ids a tab list and its panel refer to each other by. */
export function useTabIds(): TabIds {
  const base = useId();
  return { tab: (id) => `${base}tab-${id}`, panel: `${base}panel` };
}

const STEP: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

export function TabList<T extends string>({
  ids,
  tabs,
  selected,
  onSelect,
  testIdPrefix,
  selectedRef,
}: {
  ids: TabIds;
  tabs: readonly { id: T; label: string }[];
  selected: T;
  onSelect: (id: T) => void;
  /** A tab's data-testid is the prefix and its id. */
  testIdPrefix: string;
  selectedRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <div className="tabs" role="tablist">
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={t.id === selected ? selectedRef : undefined}
          id={ids.tab(t.id)}
          role="tab"
          aria-selected={t.id === selected}
          aria-controls={ids.panel}
          tabIndex={t.id === selected ? 0 : -1}
          data-testid={`${testIdPrefix}${t.id}`}
          onClick={() => onSelect(t.id)}
          onKeyDown={(e) => {
            const step = STEP[e.key];
            if (!step || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
            e.preventDefault();
            const next = step(i, tabs.length);
            onSelect(tabs[next]!.id);
            (e.currentTarget.parentElement?.children[next] as HTMLElement | undefined)?.focus();
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function TabPanel({
  ids,
  selected,
  className,
  children,
}: {
  ids: TabIds;
  selected: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="tabpanel" id={ids.panel} aria-labelledby={ids.tab(selected)} className={className}>
      {children}
    </div>
  );
}
