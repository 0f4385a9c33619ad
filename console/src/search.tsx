import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';

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

/** One search box across everything, opened with Ctrl+K (Cmd+K) or the header button. */
export function SearchDialog({ onClose }: { onClose: () => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[]>();
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (!q.trim()) return setHits(undefined);
    let live = true;
    const t = setTimeout(() => searchAll(q.trim()).then((h) => live && (setHits(h), setActive(0))), 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q]);
  const open = (h: Hit | undefined) => {
    if (!h) return;
    location.hash = h.href;
    onClose();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') onClose();
    else if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, (hits?.length ?? 1) - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter') {
      e.preventDefault();
      open(hits?.[active]);
    }
  };
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="modal search" role="dialog" aria-modal="true" aria-label="Search everything">
        <input ref={input} type="search" aria-label="Search everything" placeholder="Sheets, sessions, knowledge, todos…" value={q} onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={onKey} />
        {hits && hits.length === 0 && <p class="muted">Nothing found.</p>}
        <ul class="list" role="listbox" aria-label="Results">
          {hits?.map((h, i) => (
            <li key={`${h.kind}${h.href}${h.title}`} role="option" aria-selected={i === active} class={i === active ? 'active' : ''}>
              <a href={h.href} onClick={onClose}><span class="badge">{h.kind}</span> {h.title}</a>
              {h.detail && <span class="muted small-text">{h.detail}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
