import { useEffect, useState } from 'preact/hooks';
import { when } from '../api.ts';
import { eventIdAt, followEvents, type LiveEvent } from '../live.ts';
import type { Workspace, WorkspaceMember } from '../types.ts';

/** The stream replays at most a day (RESUME_WINDOW_MS on the server); the newest of it are kept. */
const SINCE_MS = 24 * 60 * 60 * 1000;
const KEEP = 30;

const q = (text: unknown) => `"${String(text)}"`;
const sheetLink = (id: unknown) => `#/sheets/${encodeURIComponent(String(id))}`;

/** What happened, in words, with a link where the record has a page. */
function describe(e: LiveEvent): { text: string; href?: string } {
  const d = e.data;
  switch (e.event) {
    case 'sheet.created':
      return { text: `created sheet ${q(d.name)}`, href: sheetLink(d.sheet_id) };
    case 'sheet.updated':
      return { text: `changed a sheet (${(d.changes ?? []).join(', ')}), version ${d.version}`, href: sheetLink(d.sheet_id) };
    case 'sheet.deleted':
      return { text: 'deleted a sheet' };
    case 'spark.executed':
      return { text: `ran the Spark ${q(d.spark_name)}` };
    case 'session.saved':
      return { text: `saved session ${q(d.title)}`, href: `#/sessions/${encodeURIComponent(String(d.session_id))}` };
    case 'session.updated':
      return { text: `changed session ${q(d.title)}`, href: `#/sessions/${encodeURIComponent(String(d.session_id))}` };
    case 'session.handover':
      return { text: 'wrote a handover', href: `#/sessions/${encodeURIComponent(String(d.session_id))}` };
    case 'knowledge.saved':
      return { text: `saved the ${d.type} ${q(d.title)}`, href: '#/knowledge' };
    case 'export.completed':
      return { text: `exported a sheet as ${d.format}` };
    case 'todos.synced':
      return { text: `synced todos${d.project ? ` in ${q(d.project)}` : ''}: ${d.created} new, ${d.updated} changed`, href: '#/todos' };
    case 'todo.deleted':
      return { text: 'removed a todo', href: '#/todos' };
    default:
      return { text: e.event };
  }
}

/**
 * A workspace's recent events (the last day, then live) and the member who acted in each, from the
 * same event stream as the rest of the console, opened for this workspace while the page is shown.
 */
export function WorkspaceActivity({ workspace, members }: { workspace: Workspace; members: WorkspaceMember[] | undefined }) {
  const [events, setEvents] = useState<LiveEvent[]>([]);
  // Who acted: the member's name, the account id of one who has since left, nothing while the members load.
  const member = (id: string | null | undefined) => (id ? members && (members.find((m) => m.user_id === id)?.name ?? id) : 'unknown');
  useEffect(() => {
    const ac = new AbortController();
    const stream = workspace.personal ? '/events/stream' : `/events/stream?workspace_id=${encodeURIComponent(workspace.id)}`;
    const add = (e: LiveEvent) => setEvents((list) => [e, ...list.filter((x) => x.id !== e.id)].slice(0, KEEP));
    void followEvents(stream, add, ac.signal, eventIdAt(Date.now() - SINCE_MS));
    return () => ac.abort();
  }, [workspace.id, workspace.personal]);
  return (
    <section class="card">
      <h2>
        Recent activity <span class="muted small-text">the last day, newest first</span>
      </h2>
      {events.length === 0 ? (
        <p class="muted">Nothing yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Who</th>
                <th>What</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => {
                const { text, href } = describe(e);
                return (
                  <tr key={e.id} data-event={e.event} data-event-id={e.id}>
                    <td data-label="Who" class="actor">
                      {member(e.data.actor_id)}
                    </td>
                    <td data-label="What">{href ? <a href={href}>{text}</a> : text}</td>
                    <td data-label="When">{when(e.timestamp)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
