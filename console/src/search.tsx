import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';
import { useDialog } from './components.tsx';

interface Hit { kind: string; title: string; href: string; detail?: string }

const link = (page: string, id: string) => `#/${page}/${encodeURIComponent(id)}`;

/** Sheets, sessions, knowledge and todos matching the words, in parallel; a failing source is skipped. */
async function searchAll(q: string): Promise<Hit[]> {
  const enc = encodeURIComponent(q);
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const [sheets, sessions, knowledge, todos] = await Promise.allSettled([
    api<{ sheets: { id: string; title: string; folder: string | null }[] }>('GET', `/sheets?limit=10&q=${enc}`),
    api<{ sessions: { id: string; title: string; project?: string | null }[] }>('GET', `/sessions?limit=10&q=${enc}`),
    api<{ solutions: { id: string; title: string }[]; snippets: { id: string; title: string }[] }>('GET', `/knowledge?limit=10&q=${enc}`),
    api<{ todos: { id: string; content: string; status: string; project: string }[] }>('GET', '/todos'),
  ]);
  const hits: Hit[] = [];
  if (sheets.status === 'fulfilled') for (const s of sheets.value.sheets) hits.push({ kind: 'Sheet', title: s.title, href: link('sheets', s.id), detail: s.folder ?? undefined });
  if (sessions.status === 'fulfilled') for (const s of sessions.value.sessions) hits.push({ kind: 'Session', title: s.title, href: link('sessions', s.id), detail: s.project ?? undefined });
  if (knowledge.status === 'fulfilled') {
    for (const k of knowledge.value.solutions ?? []) hits.push({ kind: 'Solution', title: k.title, href: '#/knowledge' });
    for (const k of knowledge.value.snippets ?? []) hits.push({ kind: 'Snippet', title: k.title, href: '#/knowledge' });
  }
  if (todos.status === 'fulfilled') {
    for (const t of todos.value.todos) {
      if (words.every((w) => t.content.toLowerCase().includes(w))) hits.push({ kind: 'Todo', title: t.content, href: '#/todos', detail: t.status.replace('_', ' ') });
    }
  }
  return hits.slice(0, 40);
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
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useDialog(dialog, onClose, input);
  useEffect(() => {
    if (!q.trim()) return setHits(undefined);
    let live = true;
    const t = setTimeout(() => searchAll(q.trim()).then((h) => live && (setHits(h), setActive(0), setAnswered(q.trim()))), 200);
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
        <input ref={input} type="text" role="combobox" aria-label="Search everything" aria-autocomplete="list" aria-expanded={expanded}
          aria-controls="search-results" aria-activedescendant={expanded ? optionId(active) : undefined}
          placeholder="Sheets, sessions, knowledge, todos…" value={q} onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={onKey} />
        {hits && hits.length === 0 && <p class="muted" role="status">Nothing found.</p>}
        <ul class="list" id="search-results" role="listbox" aria-label="Results" aria-busy={!!q.trim() && answered !== q.trim()}>
          {hits?.map((h, i) => (
            <li key={`${h.kind}${h.href}${h.title}`} id={optionId(i)} role="option" aria-selected={i === active} class={i === active ? 'active' : ''}
              onClick={() => open(h)} onMouseMove={() => i !== active && setActive(i)}>
              <span class="badge">{h.kind}</span> {h.title}
              {h.detail && <span class="muted small-text"> {h.detail}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const optionId = (i: number) => `search-hit-${i}`;
