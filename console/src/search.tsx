import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';
import { useDialog } from './components.tsx';
import type { ApiResponse, SearchKind, SearchResult } from './types.ts';
import { workspaceInUse } from './workspace.ts';

interface Hit {
  kind: string;
  title: string;
  href: string;
  detail?: string;
  snippet?: string;
}

const KIND_LABEL: Record<SearchKind, string> = { sheet: 'Sheet', session: 'Session', solution: 'Solution', snippet: 'Snippet', todo: 'Todo' };
const PAGE: Record<SearchKind, string> = { sheet: 'sheets', session: 'sessions', solution: 'knowledge', snippet: 'knowledge', todo: 'todos' };

/** A hit opens its record's page (a solution or snippet on the knowledge page, a todo on the board). */
export const hitOf = (r: SearchResult): Hit => ({
  kind: KIND_LABEL[r.type] ?? r.type,
  title: r.title,
  href: `#/${PAGE[r.type] ?? 'sheets'}/${encodeURIComponent(r.id)}`,
  detail: r.project ?? undefined,
  snippet: r.snippet && r.snippet !== r.title ? r.snippet : undefined,
});

/**
 * One ranked search over sheets, sessions, knowledge and todos (GET /v1/search, the one the MCP tool
 * and the briefing use), in the workspace in use: the console works in one workspace at a time.
 */
async function searchAll(q: string): Promise<Hit[]> {
  const ws = workspaceInUse();
  const r = await api<ApiResponse<'search'>>('GET', `/search?limit=20&q=${encodeURIComponent(q)}${ws ? `&workspace_id=${encodeURIComponent(ws)}` : ''}`);
  return r.results.map(hitOf);
}

/**
 * One search box across everything, opened with Ctrl+K (Cmd+K) or the header button. A combobox
 * over a listbox: focus stays in the box, arrows move the highlighted option (announced through
 * aria-activedescendant), Enter opens it, Escape closes and focus returns where it was.
 */
export function SearchDialog({ onClose }: { onClose: () => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[]>();
  /** The words `hits` answer; while they differ from the box, a search is under way. */
  const [answered, setAnswered] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string>();
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useDialog(dialog, onClose, input);
  useEffect(() => {
    if (!q.trim()) return setHits(undefined);
    let live = true;
    const words = q.trim();
    const t = setTimeout(
      () =>
        searchAll(words).then(
          (h) => live && (setHits(h), setError(undefined), setActive(0), setAnswered(words)),
          (err: Error) => live && (setHits([]), setError(err.message), setAnswered(words)),
        ),
      200,
    );
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q]);
  useEffect(() => document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' }), [active, hits]);
  const open = (h: Hit | undefined) => {
    if (!h) return;
    onClose();
    location.hash = h.href;
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, (hits?.length ?? 1) - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(hits?.[active]);
    }
  };
  const expanded = !!hits && hits.length > 0;
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="modal search" ref={dialog} role="dialog" aria-modal="true" aria-label="Search everything">
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Search everything"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls="search-results"
          aria-activedescendant={expanded ? optionId(active) : undefined}
          placeholder="Sheets, sessions, knowledge, todos…"
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
          onKeyDown={onKey}
        />
        {error ? (
          <p class="notice error" role="alert">
            {error}
          </p>
        ) : (
          hits &&
          hits.length === 0 && (
            <p class="muted" role="status">
              Nothing found.
            </p>
          )
        )}
        <ul class="list" id="search-results" role="listbox" aria-label="Results" aria-busy={!!q.trim() && answered !== q.trim()}>
          {hits?.map((h, i) => (
            <li
              key={`${h.kind}${h.href}${h.title}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onClick={() => open(h)}
              onMouseMove={() => i !== active && setActive(i)}
            >
              <span class="badge">{h.kind}</span> {h.title}
              {h.detail && <span class="muted small-text"> {h.detail}</span>}
              {h.snippet && <span class="muted small-text hit-snippet">{h.snippet}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const optionId = (i: number) => `search-hit-${i}`;
