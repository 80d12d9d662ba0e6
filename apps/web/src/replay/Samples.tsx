/**
 * Sample traces shipped in public/traces, listed by public/traces/index.json:
 *   { "traces": [ { "file": "hot-loop.jsonl", "title": "…", "description": "…", "teaches": "…" } ] }
 * Only entries whose file is a plain name are offered (the page fetches traces/<file>).
 * Works on static hosting (relative fetch, base "./").
 */
import { useQuery } from "@tanstack/react-query";

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
  if (list.length === 0) return null;
  return (
    <select
      data-testid="samples"
      aria-label="Open a sample trace"
      value=""
      onChange={(e) => e.target.value && onOpen(`traces/${e.target.value}`)}
    >
      <option value="">Samples…</option>
      {list.map((t) => (
        <option key={t.file} value={t.file} title={t.teaches ?? t.description}>
          {t.title}
        </option>
      ))}
    </select>
  );
}
