import { when } from './api.ts';
import type { Session, SessionListItem } from './types.ts';
import { workspaceInUse } from './workspace.ts';

/** The briefing page of a session's project, in the session's workspace (named when it is not the one in use). */
export const briefingHref = (project: string | null, workspaceId?: string) =>
  `#/briefing?project=${encodeURIComponent(project ?? '')}${workspaceId && workspaceId !== workspaceInUse() ? `&workspace_id=${encodeURIComponent(workspaceId)}` : ''}`;

/** Who wrote the title and summary: a client's automatic capture, or a person or the model. */
export function SourceMark({ session: s }: { session: Pick<SessionListItem, 'source' | 'agent'> }) {
  const captured = s.source === 'capture';
  return (
    <span
      class={`badge ${captured ? 'badge-captured' : 'badge-curated'}`}
      data-testid="session-source"
      title={captured ? `Captured automatically${s.agent ? ` by ${s.agent}` : ''}: title and summary built from the session` : 'Curated: written by a person or the model'}
    >
      {captured ? 'captured' : 'curated'}
    </span>
  );
}

const Items = ({ title, items, testId }: { title: string; items: string[]; testId: string }) =>
  items.length === 0 ? null : (
    <>
      <h3>{title}</h3>
      <ul data-testid={testId}>
        {items.map((t, i) => (
          <li key={i}>{t}</li>
        ))}
      </ul>
    </>
  );

/** What the AI provider condensed from the session (never hidden: the model is named), or why it did not. */
function Distilled({ session: s }: { session: Session }) {
  const d = s.distilled;
  if (!d && !s.distill_note) return null;
  return (
    <section class="distilled" data-testid="session-distilled">
      {d && (
        <>
          <h3>
            Distilled{' '}
            <span class="muted small-text">
              by {d.model}, {when(d.at)}
            </span>
          </h3>
          <p class="pre">{d.summary}</p>
          <Items title="Decisions" items={d.decisions} testId="decisions" />
          <Items title="Learnings" items={d.learnings} testId="learnings" />
        </>
      )}
      {s.distill_note && <p class="muted small-text">{s.distill_note}</p>}
    </section>
  );
}

/** Everything a session record says, all as text (nothing from a record is read as HTML). */
export function SessionRecord({ session: s }: { session: Session }) {
  return (
    <>
      <h2>
        {s.title} <SourceMark session={s} />
      </h2>
      <p class="muted">
        {s.project ? `${s.project} · ` : ''}
        {when(s.createdAt)}
        {s.agent ? ` · ${s.agent}` : ''}
        {s.tags.length ? ` · ${s.tags.join(', ')}` : ''}
        {' · '}
        <a href={briefingHref(s.project, s.workspace_id)}>Briefing for {s.project ? s.project : 'no project'}</a>
      </p>
      {s.outcome && (
        <>
          <h3>Outcome</h3>
          <p class="pre" data-testid="session-outcome">
            {s.outcome}
          </p>
        </>
      )}
      <h3>Summary</h3>
      <p class="pre">{s.summary}</p>
      <Distilled session={s} />
      <Items title={`Tasks done (${s.tasks_done.length})`} items={s.tasks_done} testId="tasks-done" />
      <Items title={`Tasks left open (${s.tasks_open.length})`} items={s.tasks_open} testId="tasks-open" />
      {s.errors.length > 0 && (
        <>
          <h3>Failed commands ({s.errors.length})</h3>
          <ul class="failed-commands" data-testid="failed-commands">
            {s.errors.map((e, i) => (
              <li key={i}>
                <code>{e.command}</code>
                <br />
                <span class="error-line">{e.error}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {s.files_changed.length > 0 && (
        <>
          <h3>Files changed ({s.files_changed.length})</h3>
          <ul>
            {s.files_changed.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {s.prompts.length > 0 && (
        <details>
          <summary>Prompts ({s.prompts.length})</summary>
          <ol class="prompts">
            {s.prompts.map((p, i) => (
              <li key={i} class="pre">
                {p}
              </li>
            ))}
          </ol>
        </details>
      )}
    </>
  );
}
