import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import { SheetBody } from '../sheet-body.tsx';
import type { Sheet } from '../types.ts';
import { workspaceInUse } from '../workspace.ts';

interface Session { id: string; workspace_id?: string; title: string; summary: string; project: string | null; tags: string[]; files_changed: string[]; createdAt: string }

/**
 * Handovers are sheets in the "Handover" folder titled "Handover: <session title>", in the session's
 * workspace (named when it is not the one in use: a session opened from a link may be in another).
 */
async function handoversOf(s: Session): Promise<Sheet[]> {
  const elsewhere = s.workspace_id && s.workspace_id !== workspaceInUse() ? `&workspace_id=${encodeURIComponent(s.workspace_id)}` : '';
  const r = await api<{ sheets: Sheet[] }>('GET', `/sheets?limit=100&q=${encodeURIComponent(`handover ${s.title}`)}${elsewhere}`);
  return r.sheets.filter((x) => x.folder === 'Handover' && x.title === `Handover: ${s.title}`);
}

/** Writes a handover sheet for the session: next steps one per line, and notes. */
function HandoverForm({ session, onDone }: { session: Session; onDone: () => void }) {
  const [steps, setSteps] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const next_steps = steps.split('\n').map((x) => x.trim()).filter(Boolean);
      await api('POST', '/sessions/handover', { session_id: session.id, next_steps, ...(notes.trim() ? { notes } : {}) });
      setSteps('');
      setNotes('');
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="handover-form" onSubmit={submit}>
      <h3>Make a handover</h3>
      <label>Next steps (one per line)<textarea name="next_steps" rows={3} value={steps} onInput={(e) => setSteps(e.currentTarget.value)} /></label>
      <label>Notes<textarea name="notes" rows={3} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} /></label>
      <Notice error={error} />
      <button type="submit">Make handover</button>
    </form>
  );
}

function SessionView({ id }: { id: string }) {
  const session = useLoad(() => api<{ session: Session }>('GET', path`/sessions/${id}`).then((r) => r.session), [id]);
  const [made, setMade] = useState(0);
  const handovers = useLoad(() => (session.data ? handoversOf(session.data) : Promise.resolve([])), [session.data, made]);
  useLive(['session.handover'], (e) => e.data.session_id === id && setMade((n) => n + 1));
  // A session saved again (the Claude Code plugin at compaction and end) shows its new fields.
  useLive(['session.updated'], (e) => e.data.session_id === id && session.reload());
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
              <a href={`#/sheets/${encodeURIComponent(h.id)}`}>{h.title}</a> <span class="muted small-text">{when(h.createdAt)}</span>
              <SheetBody sheet={h} />
            </article>
          ))}
          <HandoverForm session={s} onDone={() => setMade((n) => n + 1)} />
        </>
      )}
    </section>
  );
}

export function SessionsPage({ sessionId }: { sessionId?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const list = useLoad(() => api<{ sessions: Session[] }>('GET', `/sessions?limit=100${query ? `&q=${encodeURIComponent(query)}` : ''}`), [query]);
  useLive(['session.saved', 'session.updated'], () => !sessionId && list.reload(), 300);
  if (sessionId) return <SessionView id={sessionId} />;
  return (
    <>
      <h1>Sessions</h1>
      <form class="row" onSubmit={(e) => { e.preventDefault(); setQuery(q); }}>
        <input type="search" aria-label="Search sessions" placeholder="Search sessions" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <Notice error={list.error} />
      <ul class="list">
        {list.data?.sessions.map((s) => (
          <li key={s.id}>
            <a href={`#/sessions/${encodeURIComponent(s.id)}`}>{s.title}</a>
            <span class="muted small-text">{s.project ? `${s.project} · ` : ''}{when(s.createdAt)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
