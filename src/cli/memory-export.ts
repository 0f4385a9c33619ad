import fs from 'node:fs';
import { handoverText, nextSteps } from '../modules/briefing/briefing.steps.js';
import { HttpError, MemoryInputError, type Api } from './memory-client.js';
import { DEFAULT_MAX_CHARS, MIN_MAX_CHARS, renderDigest, replaceSection, type Digest, type DigestKnowledge, type DigestTodo, type FailedCmd } from './memory-format.js';

/**
 * `memory export`: reads one project's memory over REST (the handover the briefing names, the newest sessions,
 * the open todos, the solutions the search finds for the sessions' failed commands and the newest knowledge
 * entries) and renders it as the Markdown section of memory-format.ts.
 */

/** Sessions, newest knowledge entries and error lines looked up, at most. */
export const RECENT_SESSIONS = 10;
const NEWEST_KNOWLEDGE = 5;
const ERRORS_LOOKED_UP = 3;
const HANDOVER_HTML_MAX = 64 * 1024;
export const REF_TAG = 'memory-ref:';

export interface ExportOptions {
  project: string;
  workspace?: string;
  maxChars?: number;
}

/** The fields read here of the REST answers (Api hands them over as parsed JSON, unchecked). */
export interface KnowledgeJson {
  id: string;
  tags?: string[];
  title: string;
  error?: string | null;
  description?: string | null;
  language?: string | null;
  content: string;
}
interface SessionJson {
  id: string;
  external_id: string | null;
  agent: string | null;
  title: string;
  outcome: string | null;
  summary: string;
  files_changed: string[];
  errors: FailedCmd[];
}

const refOf = (e: { id: string; tags?: string[] }) => e.tags?.find((t) => t.startsWith(REF_TAG))?.slice(REF_TAG.length) ?? e.id;

function knowledgeOf(e: KnowledgeJson, kind: 'solution' | 'snippet'): DigestKnowledge {
  return {
    id: e.id,
    ref: refOf(e),
    kind,
    title: e.title,
    error: kind === 'solution' ? (e.error ?? null) : null,
    description: kind === 'snippet' ? (e.description ?? null) : null,
    language: e.language ?? null,
    content: e.content,
  };
}

export async function readDigest(api: Api, o: ExportOptions): Promise<Digest> {
  const ws: Record<string, string> = o.workspace ? { workspace_id: o.workspace } : {};
  const briefing = await api.get('/briefing', { project: o.project, max_chars: 20_000, ...ws });
  const d: Digest = { project: o.project, workspaceId: briefing.workspace_id, handover: null, sessions: [], todos: [], knowledge: [] };

  if (briefing.handover) {
    const [{ sheet }, { session }] = await Promise.all([api.get(`/sheets/${briefing.handover.handover_id}`), api.get(`/sessions/${briefing.handover.session_id}`)]);
    d.handover = {
      title: sheet.title,
      sessionId: session.id,
      external: session.external_id,
      sessionTitle: session.title,
      summary: session.summary,
      files: session.files_changed,
      steps: nextSteps(sheet.content),
      notes: handoverText(sheet.content, HANDOVER_HTML_MAX).notes,
    };
  }
  const { sessions } = await api.get('/sessions', { project: o.project, limit: RECENT_SESSIONS, ...ws });
  d.sessions = sessions.map((s: SessionJson) => ({
    id: s.id,
    external: s.external_id,
    agent: s.agent,
    title: s.title,
    outcome: s.outcome,
    summary: s.summary,
    files: s.files_changed,
    errors: s.errors,
  }));
  const { todos } = await api.get('/todos', { project: o.project, ...ws });
  d.todos = todos.filter((t: { status: string }) => t.status !== 'completed').map((t: DigestTodo) => ({ content: t.content, status: t.status, priority: t.priority }));
  if (!d.handover && !d.sessions.length && !d.todos.length) {
    throw new MemoryInputError(`Project ${JSON.stringify(o.project)} has no handover, session or open todo in workspace ${d.workspaceId}: check its name (as sessions are saved with it) and --workspace`);
  }

  const canReadKnowledge = await api.get('/knowledge', { limit: 1, ...ws }).then(
    () => true,
    (err) => (err instanceof HttpError && err.status === 403 ? false : Promise.reject(err)),
  );
  if (canReadKnowledge) d.knowledge = await topKnowledge(api, d, ws);
  return d;
}

/** Solutions for the recent failed commands (the one search, as the briefing does), then the newest entries. */
async function topKnowledge(api: Api, d: Digest, ws: Record<string, string>): Promise<DigestKnowledge[]> {
  const out: DigestKnowledge[] = [];
  const seen = new Set<string>();
  const lines = [...new Set(d.sessions.flatMap((s) => s.errors.map((e) => e.error.trim().slice(0, 200))).filter((e) => e))].slice(0, ERRORS_LOOKED_UP);
  for (const q of lines) {
    const { results } = await api.get('/search', { q, types: 'solution', limit: 2, ...ws });
    for (const hit of results) {
      if (seen.has(hit.id)) continue;
      const entry = await api.find(`/knowledge/${hit.id}`);
      if (!entry?.solution) continue;
      seen.add(hit.id);
      out.push(knowledgeOf(entry.solution, 'solution'));
    }
  }
  const newest = await api.get('/knowledge', { limit: NEWEST_KNOWLEDGE, ...ws });
  const all = [...(newest.solutions ?? []).map((e: KnowledgeJson) => knowledgeOf(e, 'solution')), ...(newest.snippets ?? []).map((e: KnowledgeJson) => knowledgeOf(e, 'snippet'))].sort((a, b) =>
    a.id.slice(4) < b.id.slice(4) ? 1 : -1,
  );
  for (const k of all.slice(0, NEWEST_KNOWLEDGE)) {
    if (seen.has(k.id)) continue;
    seen.add(k.id);
    out.push(k);
  }
  return out;
}

export function parseMaxChars(v: string | undefined): number {
  if (v === undefined) return DEFAULT_MAX_CHARS;
  if (!/^\d{1,9}$/.test(v) || Number(v) < MIN_MAX_CHARS) throw new MemoryInputError(`--max-chars must be a whole number of at least ${MIN_MAX_CHARS} (not ${JSON.stringify(v)})`);
  return Number(v);
}

/** Renders the digest; with `out`, writes it into that file (replacing the project's section if it has one). */
export async function exportMemory(api: Api, o: ExportOptions & { out?: string }): Promise<{ text: string; written?: string }> {
  const section = renderDigest(await readDigest(api, o), o.maxChars ?? DEFAULT_MAX_CHARS);
  if (!o.out) return { text: section };
  let existing = '';
  try {
    existing = fs.readFileSync(o.out, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new MemoryInputError(`Cannot read ${o.out}: ${(err as Error).message}`);
  }
  try {
    fs.writeFileSync(o.out, replaceSection(existing, o.project, section));
  } catch (err) {
    throw new MemoryInputError(`Cannot write ${o.out}: ${(err as Error).message}`);
  }
  return { text: section, written: o.out };
}
