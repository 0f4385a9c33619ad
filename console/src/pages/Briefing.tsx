import { api, useLoad, when } from '../api.ts';
import { CopyButton, Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import type { ApiResponse, Briefing } from '../types.ts';

/** The budgets offered; the server's default is 6,000 (src/modules/briefing/briefing.schemas.ts). */
const BUDGETS = [2_000, 4_000, 6_000, 10_000, 20_000];
const DEFAULT_BUDGET = 6_000;

/** "5 min ago", "2 h ago", "3 days ago". */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  return `${d} day${d === 1 ? '' : 's'} ago`;
}

interface Params {
  project: string | null;
  workspaceId?: string;
  maxChars: number;
}

/** The page's address: everything it shows is in the URL fragment, so a link opens the same briefing. */
function href(p: Params): string {
  const q = new URLSearchParams();
  if (p.project !== null) q.set('project', p.project);
  if (p.workspaceId) q.set('workspace_id', p.workspaceId);
  if (p.maxChars !== DEFAULT_BUDGET) q.set('max_chars', String(p.maxChars));
  const s = q.toString();
  return `#/briefing${s ? `?${s}` : ''}`;
}

/** Projects of the latest sessions (of the workspace named, else the one in use), most recent first; '' is "no project". */
async function recentProjects(workspaceId?: string): Promise<string[]> {
  const ws = workspaceId ? `&workspace_id=${encodeURIComponent(workspaceId)}` : '';
  const r = await api<ApiResponse<'listSessions'>>('GET', `/sessions?limit=100&fields=project${ws}`);
  return [...new Set(r.sessions.map((s) => s.project ?? ''))];
}

function CaptureHealth({ lastAt }: { lastAt: string | null }) {
  return (
    <p data-testid="capture-health">
      <strong>Capture health:</strong> {lastAt ? <span title={when(lastAt)}>last capture {ago(lastAt)}</span> : <span class="over-budget">never — is the plugin installed?</span>}
    </p>
  );
}

/**
 * Exactly what the next session of a project is told at its start (GET /v1/briefing, the text the
 * Claude Code plugin hands the model), its size against the budget, and whether capture reaches us.
 */
export function BriefingPage({ query }: { query: URLSearchParams }) {
  const max = Number(query.get('max_chars'));
  const p: Params = {
    project: query.get('project'),
    workspaceId: query.get('workspace_id') ?? undefined,
    maxChars: BUDGETS.includes(max) ? max : DEFAULT_BUDGET,
  };
  const projects = useLoad(() => recentProjects(p.workspaceId), [p.workspaceId]);
  const briefing = useLoad(
    () =>
      p.project === null
        ? Promise.resolve(undefined)
        : api<Briefing>('GET', `/briefing?project=${encodeURIComponent(p.project)}&max_chars=${p.maxChars}${p.workspaceId ? `&workspace_id=${encodeURIComponent(p.workspaceId)}` : ''}`),
    [p.project, p.workspaceId, p.maxChars],
  );
  useLive(['session.saved', 'session.updated', 'session.handover', 'todos.synced', 'todo.deleted', 'knowledge.saved'], () => briefing.reload(), 500);
  const go = (change: Partial<Params>) => void (location.hash = href({ ...p, ...change }));
  const options = [...new Set([...(projects.data ?? []), ...(p.project !== null ? [p.project] : [])])];
  const b = briefing.data;
  return (
    <>
      <h1>Briefing</h1>
      <p class="muted">What the next session of a project is told at its start, exactly as the Claude Code plugin hands it to the model.</p>
      <div class="row">
        <label>
          Project
          <select name="project" value={p.project ?? '\u0000'} onChange={(e) => go({ project: e.currentTarget.value })}>
            {p.project === null && (
              <option value={'\u0000'} disabled>
                Choose a project
              </option>
            )}
            {options.map((o) => (
              <option key={o} value={o}>
                {o || '(no project)'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Budget
          <select name="max_chars" value={String(p.maxChars)} onChange={(e) => go({ maxChars: Number(e.currentTarget.value) })}>
            {BUDGETS.map((n) => (
              <option key={n} value={String(n)}>
                {n.toLocaleString('en')} characters{n === DEFAULT_BUDGET ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Notice error={projects.error ?? briefing.error} />
      {projects.data?.length === 0 && p.project === null && <p class="muted">No sessions yet: a project appears here once a session of it is saved.</p>}
      {b && (
        <section class="card">
          <CaptureHealth lastAt={b.capture.last_at} />
          <p class="row">
            <span data-testid="briefing-size">
              {b.text.length.toLocaleString('en')} of {p.maxChars.toLocaleString('en')} characters
            </span>
            <CopyButton text={b.text} label="Copy briefing" />
          </p>
          <pre class="briefing-text" data-testid="briefing-text">
            {b.text}
          </pre>
        </section>
      )}
    </>
  );
}
