import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { hasScope, type Granted } from '../../auth/scopes.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { SearchService } from '../search/search.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { FailedCommandView } from '../sessions/sessions.schemas.js';
import type { TodosRepo } from '../todos/todos.repo.js';
import { OPEN_STATUSES } from '../todos/todos.service.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import { type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { BriefingRepo } from './briefing.repo.js';
import { BRIEFING_DEFAULT_CHARS, type Briefing, type BriefingInput } from './briefing.schemas.js';
import { composeBriefing, type BriefingKnowledgePart, type BriefingSessionPart, type BriefingTodoPart } from './briefing.compose.js';
import { doneSteps, handoverText, nextSteps } from './briefing.steps.js';

/** Each part needs the scope that reads it; a credential with either of the first two gets that part. */
export const BRIEFING_HANDOVER_SCOPE = 'sessions:read';
export const BRIEFING_TODOS_SCOPE = 'todos:read';
export const BRIEFING_KNOWLEDGE_SCOPE = 'knowledge:read';
/** How much of a handover's HTML is read for its notes and summary (the text is cut to the budget anyway). */
const HANDOVER_HTML_MAX = 32 * 1024;
/** Errors of recent sessions looked up in the knowledge base, and entries shown at most. */
const ERRORS_LOOKED_UP = 3;
const KNOWLEDGE_SHOWN = 3;

type Handover = Awaited<ReturnType<SessionsService['latestHandover']>>;
type SessionRow = Awaited<ReturnType<BriefingRepo['recentSessions']>>[number];

const json = <T>(s: string) => JSON.parse(s) as T;

/**
 * The briefing an assistant gets when a session starts (issue 54): one project's latest handover with its
 * next steps marked done by later work, the sessions since (title, outcome, files, failed commands), the
 * open todos with where each was left, and knowledge matching recent errors, as plain text of at most
 * max_chars characters. Nothing of another project or workspace is read; in a team workspace each part
 * names its author, and others=exclude leaves out what other members wrote.
 */
export function createBriefingService(deps: {
  sessions: Pick<SessionsService, 'latestHandover'>;
  todos: Pick<TodosRepo, 'list'>;
  knowledge: Pick<KnowledgeService, 'get'>;
  search: Pick<SearchService, 'search'>;
  repo: BriefingRepo;
  access: Pick<WorkspaceAccess, 'workspaceFor'>;
  clock: Clock;
}) {
  const { sessions, todos, knowledge, search, repo, access, clock } = deps;

  async function latestHandover(caller: Caller, project: string, workspaceId: string): Promise<Handover | null> {
    return sessions.latestHandover(caller, project, workspaceId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    });
  }

  /**
   * Solutions for the errors of recent sessions, best match first: the distinct error lines, newest first,
   * looked up together in one search (GET /v1/search's ranking ranks words, it does not require them all).
   */
  async function knowledgeFor(caller: Caller & { scopes?: Granted }, workspaceId: string, errors: FailedCommandView[]): Promise<BriefingKnowledgePart[]> {
    const lines = [...new Set(errors.map((e) => e.error.trim().slice(0, 150)).filter((e) => e))].slice(0, ERRORS_LOOKED_UP);
    if (lines.length === 0) return [];
    const { results } = await search.search(caller, { q: lines.join(' '), types: ['solution'], workspace_id: workspaceId, limit: KNOWLEDGE_SHOWN });
    const found: BriefingKnowledgePart[] = [];
    for (const hit of results) {
      const entry = await knowledge.get(caller, hit.id);
      if (entry.type === 'solution') found.push({ id: hit.id, title: entry.solution.title, error: entry.solution.error, fix: entry.solution.content });
    }
    return found;
  }

  return {
    async get(caller: Caller & { scopes?: Granted }, input: BriefingInput): Promise<Briefing> {
      const readsSessions = hasScope(caller.scopes, BRIEFING_HANDOVER_SCOPE);
      const readsTodos = hasScope(caller.scopes, BRIEFING_TODOS_SCOPE);
      if (!readsSessions && !readsTodos) {
        throw new AppError('insufficient_scope', `The briefing needs the scope ${BRIEFING_HANDOVER_SCOPE} or ${BRIEFING_TODOS_SCOPE}`, undefined, {
          required_scope: BRIEFING_HANDOVER_SCOPE,
        });
      }
      const readsKnowledge = hasScope(caller.scopes, BRIEFING_KNOWLEDGE_SCOPE);
      const { project } = input;
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.read');
      // Only a team workspace has other members.
      const team = workspaceId !== personalWorkspaceId(caller.userId);
      const othersOut = team && input.others === 'exclude';
      const mine = (author: string | null) => !othersOut || author === caller.userId;

      const [handover, recent, open, completed, captureAt] = await Promise.all([
        readsSessions ? latestHandover(caller, project, workspaceId) : null,
        readsSessions ? repo.recentSessions(workspaceId, project) : [],
        readsTodos ? todos.list({ workspaceId, project, statuses: OPEN_STATUSES }) : [],
        readsTodos ? repo.completedTodos(workspaceId, project) : [],
        readsSessions ? repo.lastCapture(workspaceId, project) : null,
      ]);
      const handoverAuthor = handover ? await repo.handoverAuthor(handover.handover_id) : null;
      const shownHandover = handover && mine(handoverAuthor) ? handover : null;

      // The sessions since the handover (its own session excluded), or the latest when there is none.
      const since = shownHandover?.sheet.createdAt;
      const later = recent.filter((s: SessionRow) => s.id !== shownHandover?.session_id && (!since || (s.updated_at ?? s.created_at) > since) && mine(s.user_id));
      const openShown = open.filter((t) => mine(t.changed_by));
      const doneTexts = [...completed.map((t) => t.content), ...later.flatMap((s) => json<string[]>(s.tasks_done))];

      const refs = [...new Set(openShown.flatMap((t) => (t.status === 'in_progress' && t.session_ref ? [t.session_ref] : [])))];
      const bySessionRef = new Map((await repo.sessionsByRef(workspaceId, refs)).flatMap((s) => [[s.id, s.title], ...(s.external_id ? [[s.external_id, s.title] as const] : [])]));
      const names = team ? await repo.names([...new Set([handoverAuthor, ...later.map((s) => s.user_id), ...openShown.map((t) => t.changed_by)].filter((x): x is string => !!x))]) : new Map<string, string>();
      const nameOf = (id: string | null) => (team && id ? (names.get(id) ?? id) : undefined);

      const errors = later.flatMap((s) => json<FailedCommandView[]>(s.errors));
      const knowledgeParts = readsKnowledge && errors.length ? await knowledgeFor(caller, workspaceId, errors) : [];

      const steps = shownHandover ? nextSteps(shownHandover.sheet.content) : [];
      const done = doneSteps(steps, doneTexts);
      const text = shownHandover ? handoverText(shownHandover.sheet.content, HANDOVER_HTML_MAX) : null;
      const sessionParts: BriefingSessionPart[] = later.map((s) => ({
        id: s.id,
        title: s.title,
        outcome: s.outcome,
        files: json<string[]>(s.files_changed),
        errors: json<FailedCommandView[]>(s.errors),
        at: s.updated_at ?? s.created_at,
        agent: s.agent,
        author: nameOf(s.user_id),
      }));
      const todoParts: BriefingTodoPart[] = openShown.map((t) => ({
        id: t.id,
        content: t.content,
        status: t.status,
        priority: t.priority,
        at: t.updated_at,
        sinceSession: t.session_ref ? bySessionRef.get(t.session_ref) : undefined,
        by: nameOf(t.changed_by),
      }));
      const cannotRead = [...(readsSessions ? [] : [`sessions and handovers (${BRIEFING_HANDOVER_SCOPE})`]), ...(readsTodos ? [] : [`todos (${BRIEFING_TODOS_SCOPE})`])];
      const maxChars = input.max_chars ?? BRIEFING_DEFAULT_CHARS;
      const composed = composeBriefing({
        project,
        workspaceId,
        namedWorkspace: input.workspace_id,
        now: clock.now(),
        maxChars,
        cannotRead,
        othersLeftOut: othersOut,
        handover:
          shownHandover && text
            ? {
                id: shownHandover.handover_id,
                sessionId: shownHandover.session_id,
                title: shownHandover.sheet.title,
                createdAt: shownHandover.sheet.createdAt,
                author: nameOf(handoverAuthor),
                steps: steps.map((s, i) => ({ text: s, doneBy: done[i] })),
                notes: text.notes,
                summary: text.summary,
                unread: text.unread,
              }
            : null,
        sessions: sessionParts,
        todos: todoParts,
        knowledge: knowledgeParts,
        captureAt,
      });
      return {
        success: true,
        project,
        workspace_id: workspaceId,
        text: composed.text,
        handover: shownHandover ? { handover_id: shownHandover.handover_id, session_id: shownHandover.session_id, title: shownHandover.sheet.title, createdAt: shownHandover.sheet.createdAt } : null,
        sessions: sessionParts.slice(0, composed.shown.sessions).map((s) => ({ id: s.id, title: s.title, outcome: s.outcome, files_changed: s.files, errors: s.errors, at: s.at })),
        todos: todoParts.slice(0, composed.shown.todos).map((t) => ({ id: t.id, content: t.content, status: t.status, priority: t.priority })),
        knowledge: knowledgeParts.slice(0, composed.shown.knowledge).map((k) => ({ id: k.id, title: k.title })),
        capture: { last_at: captureAt },
        omitted: composed.omitted,
      };
    },
  };
}
export type BriefingService = ReturnType<typeof createBriefingService>;
