/**
 * Sample traces shipped in public/traces, listed by public/traces/index.json:
 *   { "traces": [ { "file": "hot-loop.jsonl", "title": "…", "description": "…", "teaches": "…" } ] }
 * Only entries whose file is a plain name are offered (the page fetches traces/<file>).
 * Works on static hosting (relative fetch, base "./").
 *
 * A pick from the open list opens the sample at once. A closed select also changes on ↑/↓ and
 * typed letters, so those only choose: Enter or the "open" button beside it opens the choice
 * (else browsing the list by keyboard loaded every sample it passed).
 */
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";

export interface SampleEntry {
  file: string;
  title: string;
  description?: string;
  teaches?: string;
}

export function Samples({ onOpen }: { onOpen: (path: string) => void }) {
  const q = useQuery({
    queryKey: ["samples"],
    queryFn: async (): Promise<SampleEntry[]> => {
      const res = await fetch("traces/index.json");
      if (!res.ok) return [];
      const body = (await res.json()) as { traces?: SampleEntry[] };
      return (body.traces ?? []).filter((t) => /^[A-Za-z0-9._-]+$/.test(t.file));
    },
    staleTime: Infinity,
  });
  const list = q.data ?? [];
  const [choice, setChoice] = useState("");
  const browsing = useRef(false);
  if (list.length === 0) return null;
  const open = (file: string) => {
    setChoice("");
    onOpen(`traces/${file}`);
  };
  return (
    <>
      <select
        data-testid="samples"
        aria-label="Open a sample trace"
        value={choice}
        onKeyDown={(e) => {
          const browse = ["ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"];
          if (e.key === "Enter" && choice) {
            e.preventDefault();
            open(choice);
          } else if (
            !e.altKey &&
            (browse.includes(e.key) || (e.key.length === 1 && e.key !== " "))
          ) {
            browsing.current = true;
          }
        }}
        // The change an arrow key makes comes between its keydown and keyup.
        onKeyUp={() => {
          browsing.current = false;
        }}
        onChange={(e) => {
          const file = e.target.value;
          if (browsing.current) {
            browsing.current = false;
            setChoice(file);
          } else if (file) {
            open(file);
          }
        }}
      >
        <option value="">Samples…</option>
        {list.map((t) => (
          <option key={t.file} value={t.file} title={t.teaches ?? t.description}>
            {t.title}
          </option>
        ))}
      </select>
      {choice && (
        <button data-testid="samples-open" onClick={() => open(choice)}>
          open
        </button>
      )}
    </>
  );
}
