import { useState } from 'preact/hooks';
import { ApiError, api, path, useLoad, when } from '../api.ts';
import { Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import { SessionRecord, SourceMark, briefingHref } from '../session-record.tsx';
import { SheetBody } from '../sheet-body.tsx';
import type { ApiResponse, Session, SessionListItem, Sheet } from '../types.ts';

/** The session's handover sheet, by the id the session names (never found by title); null when none or gone. */
async function handoverOf(s: Session): Promise<Sheet | null> {
  if (!s.handover_id) return null;
  try {
    return (await api<ApiResponse<'getSheet'>>('GET', path`/sheets/${s.handover_id}`)).sheet;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
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
      const next_steps = steps
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean);
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
      <label>
        Next steps (one per line)
        <textarea name="next_steps" rows={3} value={steps} onInput={(e) => setSteps(e.currentTarget.value)} />
      </label>
      <label>
        Notes
        <textarea name="notes" rows={3} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
      </label>
      <Notice error={error} />
      <button type="submit">Make handover</button>
    </form>
  );
}

function SessionView({ id }: { id: string }) {
  const session = useLoad(() => api<ApiResponse<'getSession'>>('GET', path`/sessions/${id}`).then((r) => r.session), [id]);
  const s = session.data;
  const handover = useLoad(() => (s ? handoverOf(s) : Promise.resolve(null)), [s?.handover_id, s?.updatedAt]);
  // A handover made here or elsewhere, or the session saved again (the plugin at compaction and end): read it again.
  useLive(['session.handover', 'session.updated'], (e) => e.data.session_id === id && session.reload());
  const h = handover.data;
  return (
    <section class="card">
      <a href="#/sessions">← All sessions</a>
      <Notice error={session.error ?? handover.error} />
      {s && (
        <>
          <SessionRecord session={s} />
          <h3>Handover</h3>
          {!handover.loading && !h && <p class="muted">{s.handover_id ? 'The handover sheet was deleted.' : 'No handover yet.'}</p>}
          {h && (
            <article class="handover" data-testid="handover">
              <a href={`#/sheets/${encodeURIComponent(h.id)}`}>{h.title}</a> <span class="muted small-text">{when(h.createdAt)}</span>
              <SheetBody sheet={h} />
            </article>
          )}
          <HandoverForm session={s} onDone={session.reload} />
        </>
      )}
    </section>
  );
}

const counts = (s: SessionListItem) =>
  [
    s.tasks_done?.length ? `${s.tasks_done.length} done` : '',
    s.tasks_open?.length ? `${s.tasks_open.length} open` : '',
    s.errors?.length ? `${s.errors.length} failed` : '',
    s.files_changed?.length ? `${s.files_changed.length} files` : '',
  ]
    .filter(Boolean)
    .join(' · ');

export function SessionsPage({ sessionId }: { sessionId?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const list = useLoad(() => api<ApiResponse<'listSessions'>>('GET', `/sessions?limit=100${query ? `&q=${encodeURIComponent(query)}` : ''}`), [query]);
  useLive(['session.saved', 'session.updated'], () => !sessionId && list.reload(), 300);
  if (sessionId) return <SessionView id={sessionId} />;
  return (
    <>
      <h1>Sessions</h1>
      <p class="muted">
        What the next session is told: <a href="#/briefing">the briefing of each project</a>.
      </p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(q);
        }}
      >
        <input type="search" aria-label="Search sessions" placeholder="Search sessions" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <Notice error={list.error} />
      <ul class="list sessions">
        {list.data?.sessions.map((s) => (
          <li key={s.id}>
            <span>
              <a href={`#/sessions/${encodeURIComponent(s.id)}`}>{s.title}</a> <SourceMark session={s} />
            </span>
            <span class="muted small-text">
              {s.project ? (
                <a href={briefingHref(s.project, s.workspace_id)} title={`Briefing for ${s.project}`}>
                  {s.project}
                </a>
              ) : null}
              {s.project ? ' · ' : ''}
              {when(s.createdAt)}
              {s.agent ? ` · ${s.agent}` : ''}
              {counts(s) ? ` · ${counts(s)}` : ''}
            </span>
            {s.outcome && <span class="muted small-text outcome">{s.outcome.length > 200 ? `${s.outcome.slice(0, 200)}…` : s.outcome}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
