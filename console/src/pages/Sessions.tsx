import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Notice } from '../components.tsx';
import { SheetBody, type Sheet } from './Sheets.tsx';

interface Session { id: string; title: string; summary: string; project: string | null; tags: string[]; files_changed: string[]; createdAt: string }

/** Handovers are sheets in the "Handover" folder titled "Handover: <session title>". */
async function handoversOf(s: Session): Promise<Sheet[]> {
  const r = await api<{ sheets: Sheet[] }>('GET', `/sheets?limit=100&q=${encodeURIComponent(`handover ${s.title}`)}`);
  return r.sheets.filter((x) => x.folder === 'Handover' && x.title === `Handover: ${s.title}`);
}

function SessionView({ id }: { id: string }) {
  const session = useLoad(() => api<{ session: Session }>('GET', path`/sessions/${id}`).then((r) => r.session), [id]);
  const handovers = useLoad(() => (session.data ? handoversOf(session.data) : Promise.resolve([])), [session.data]);
  const s = session.data;
  return (
    <section class="card">
      <a href="#/sessions">← All sessions</a>
      <Notice error={session.error ?? handovers.error} />
      {s && (
        <>
          <h2>{s.title}</h2>
          <p class="muted">{s.project ? `${s.project} · ` : ''}{when(s.createdAt)}{s.tags.length ? ` · ${s.tags.join(', ')}` : ''}</p>
          <p class="pre">{s.summary}</p>
          {s.files_changed.length > 0 && (<><h3>Files changed</h3><ul>{s.files_changed.map((f) => <li key={f}><code>{f}</code></li>)}</ul></>)}
          <h3>Handovers</h3>
          {handovers.data?.length === 0 && <p class="muted">No handover yet.</p>}
          {handovers.data?.map((h) => (
            <article key={h.id} class="handover">
              <a href={`#/sheets/${h.id}`}>{h.title}</a> <span class="muted small-text">{when(h.createdAt)}</span>
              <SheetBody sheet={h} />
            </article>
          ))}
        </>
      )}
    </section>
  );
}

export function SessionsPage({ sessionId }: { sessionId?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const list = useLoad(() => api<{ sessions: Session[] }>('GET', `/sessions?limit=100${query ? `&q=${encodeURIComponent(query)}` : ''}`), [query]);
  if (sessionId) return <SessionView id={sessionId} />;
  return (
    <>
      <h1>Sessions</h1>
      <form class="row" onSubmit={(e) => { e.preventDefault(); setQuery(q); }}>
        <input type="search" placeholder="Search sessions" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <Notice error={list.error} />
      <ul class="list">
        {list.data?.sessions.map((s) => (
          <li key={s.id}>
            <a href={`#/sessions/${s.id}`}>{s.title}</a>
            <span class="muted small-text">{s.project ? `${s.project} · ` : ''}{when(s.createdAt)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
