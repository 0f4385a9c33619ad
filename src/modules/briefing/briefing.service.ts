import { AppError } from '../../errors.js';
import { hasScope, type Granted } from '../../auth/scopes.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { TodosRepo } from '../todos/todos.repo.js';
import { OPEN_STATUSES } from '../todos/todos.service.js';
import { workspaceIdOf } from '../../lib/workspace-ids.js';
import { type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { BRIEFING_MAX_CHARS, type Briefing, type BriefingInput } from './briefing.schemas.js';
import { clip, cutAtLine, fittingTodos, handoverMarkdown, type BriefingTodo } from './briefing.text.js';

/** Each part needs the scope that reads it; a credential with either gets that part. */
export const BRIEFING_HANDOVER_SCOPE = 'sessions:read';
export const BRIEFING_TODOS_SCOPE = 'todos:read';
/** Share of the room the handover may take while there are todos to list too. */
const HANDOVER_SHARE = 0.6;

type Handover = Awaited<ReturnType<SessionsService['latestHandover']>>;

/**
 * The briefing an assistant gets when a session starts: one project's latest handover and open todos
 * in one workspace, as Markdown of at most max_chars characters however much is stored, saying what was
 * left out and which MCP tool reads it. Nothing of another project or workspace is read.
 */
export function createBriefingService(deps: { sessions: Pick<SessionsService, 'latestHandover'>; todos: Pick<TodosRepo, 'list'>; access: Pick<WorkspaceAccess, 'ownerKey'> }) {
  const { sessions, todos, access } = deps;

  async function latestHandover(caller: Caller, project: string, workspaceId: string): Promise<Handover | null> {
    return sessions.latestHandover(caller, project, workspaceId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    });
  }

  return {
    async get(caller: Caller & { scopes?: Granted }, input: BriefingInput): Promise<Briefing> {
      const readsHandover = hasScope(caller.scopes, BRIEFING_HANDOVER_SCOPE);
      const readsTodos = hasScope(caller.scopes, BRIEFING_TODOS_SCOPE);
      if (!readsHandover && !readsTodos) {
        throw new AppError('insufficient_scope', `The briefing needs the scope ${BRIEFING_HANDOVER_SCOPE} or ${BRIEFING_TODOS_SCOPE}`, undefined, {
          required_scope: BRIEFING_HANDOVER_SCOPE,
        });
      }
      const { project } = input;
      const ownerKey = await access.ownerKey(caller, input.workspace_id, 'records.read');
      const workspaceId = workspaceIdOf(ownerKey);
      const [handover, open] = await Promise.all([
        readsHandover ? latestHandover(caller, project, workspaceId) : null,
        readsTodos ? todos.list({ userId: ownerKey, project, statuses: OPEN_STATUSES }) : [],
      ]);
      const items: BriefingTodo[] = open.map((t) => ({ id: t.id, content: t.content, status: t.status, priority: t.priority }));
      return compose({ project, workspaceId, namedWorkspace: input.workspace_id, maxChars: input.max_chars ?? BRIEFING_MAX_CHARS, handover, todos: items, readsHandover, readsTodos });
    },
  };
}
export type BriefingService = ReturnType<typeof createBriefingService>;

interface Parts {
  project: string;
  workspaceId: string;
  /** The workspace_id the caller named, which the last lines repeat for the tools they name. */
  namedWorkspace?: string;
  maxChars: number;
  handover: Handover | null;
  todos: BriefingTodo[];
  readsHandover: boolean;
  readsTodos: boolean;
}

/** The last lines: what did not fit and the MCP call that reads it. */
function leftOut(project: string | null, todosLeft: number, handoverLeft: number, workspaceId?: string): string {
  const p = (project === null ? '' : ` with project ${JSON.stringify(project)}`) + (workspaceId ? ` in workspace_id ${workspaceId}` : '');
  const lines: string[] = [];
  if (handoverLeft > 0) lines.push(`- The handover was cut (about ${handoverLeft} more characters): call get_latest_handover${p} to read all of it.`);
  if (todosLeft > 0) lines.push(`- ${todosLeft} more open todo${todosLeft === 1 ? '' : 's'}: call list_todos${p} (status pending or in_progress).`);
  return lines.length ? `---\nLeft out to keep this briefing short:\n${lines.join('\n')}` : '';
}

const TITLE_MAX = 200;
const cutTitle = (title: string) => (title.length > TITLE_MAX ? `${clip(title, TITLE_MAX - 1)}…` : title);

/**
 * Body and footer within max characters. The sums in compose already keep them there; only fixed parts
 * longer than a small max_chars (a 200-character project name twice) could overflow, and then the body
 * gives way so the footer still says what was left out.
 */
function withFooter(body: string, footer: string, max: number): string {
  if (!footer) return clip(body, max);
  if (body.length + 2 + footer.length <= max) return `${body}\n\n${footer}`;
  if (footer.length + 2 >= max) return clip(`${body}\n\n${footer}`, max);
  return `${cutAtLine(body, max - footer.length - 2)}\n\n${footer}`;
}

function compose(x: Parts): Briefing {
  const name = JSON.stringify(x.project);
  const head = [`# Briefing for project ${name}`, 'From Sheet Workspace: the latest handover and the open todos (pending, in progress; newest first).'];
  if (!x.readsHandover) head.push(`This credential may not read sessions (${BRIEFING_HANDOVER_SCOPE}), so the handover is not shown.`);
  if (!x.readsTodos) head.push(`This credential may not read todos (${BRIEFING_TODOS_SCOPE}), so the todos are not shown.`);
  if (x.readsHandover && x.readsTodos && !x.handover && x.todos.length === 0) {
    head.push('There is no handover and no open todo for this project yet. End a session with save_session and create_handover; keep tasks with sync_todos.');
  }
  const handoverHead = x.handover
    ? `## Latest handover: ${cutTitle(x.handover.sheet.title)}\n(${x.handover.sheet.createdAt}; sheet ${x.handover.handover_id}, session ${x.handover.session_id})`
    : '## Latest handover\nNone yet for this project.';
  const todosHead = x.todos.length ? `## Open todos (${x.todos.length})` : '## Open todos\nNone.';

  // The last lines are reserved at their longest (every todo and the whole handover's HTML left out),
  // naming the project when that still leaves 200 characters for the rest.
  const handoverAll = x.handover ? Object.values(x.handover.sheet.content).reduce((n, h) => n + h.length, 1) : 0;
  const fixed = (p: string | null) =>
    head.join('\n').length + (x.readsHandover ? handoverHead.length + 4 : 0) + (x.readsTodos ? todosHead.length + 4 : 0) + leftOut(p, x.todos.length, handoverAll, x.namedWorkspace).length + 4;
  const named = fixed(x.project) + 200 <= x.maxChars ? x.project : null;
  let room = Math.max(0, x.maxChars - fixed(named));

  let handoverText = '';
  let handoverLeft = 0;
  if (x.handover) {
    const wantTodos = fittingTodos(x.todos, room).lines.join('\n').length;
    const cap = x.todos.length ? Math.max(Math.floor(room * HANDOVER_SHARE), room - wantTodos) : room;
    const md = handoverMarkdown(x.handover.sheet.content, cap);
    handoverText = md.text;
    handoverLeft = md.omitted;
    room -= handoverText.length;
  }
  const { lines, shown } = fittingTodos(x.todos, room);

  const sections = [head.join('\n')];
  if (x.readsHandover) sections.push(handoverText ? `${handoverHead}\n\n${handoverText}` : handoverHead);
  if (x.readsTodos) sections.push(lines.length ? `${todosHead}\n${lines.join('\n')}` : todosHead);
  return {
    success: true,
    project: x.project,
    workspace_id: x.workspaceId,
    text: withFooter(sections.join('\n\n'), leftOut(named, x.todos.length - shown.length, handoverLeft, x.namedWorkspace), x.maxChars),
    handover: x.handover
      ? { handover_id: x.handover.handover_id, session_id: x.handover.session_id, title: x.handover.sheet.title, createdAt: x.handover.sheet.createdAt }
      : null,
    todos: shown,
    omitted: { todos: x.todos.length - shown.length, handover_chars: handoverLeft },
  };
}
