import { createHash } from 'node:crypto';
import { HttpError, type Api } from './memory-client.js';
import { REF_TAG, type KnowledgeJson } from './memory-export.js';
import type { Digest, DigestKnowledge, DigestSession } from './memory-format.js';

/**
 * `memory import`: writes records over REST, each under a stable reference so a second run adds nothing.
 *  - knowledge: tagged `memory-import` and `memory-ref:<ref>`; found again by that tag (GET /v1/knowledge?tag=),
 *    updated when its text changed. Two runs creating the same entry at once converge: after creating, a run
 *    keeps only the oldest entry carrying the reference and deletes the others it sees, its own included.
 *    An id's order is not its commit's: the older entry may commit after the newer one's run has looked,
 *    so the run that commits last (which sees every entry) is the one that removes the newer copies.
 *  - sessions (from an exported section): the session itself when it is in this account (same id), else
 *    PUT /v1/sessions/external/<its external_id, or memory:<id>>, which is unique per workspace.
 *  - the handover: made from its session unless that session already has one.
 *  - todos: POST /v1/todos, which matches by project + content (never a second task with the same text).
 */

export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
}
export type Counts = Record<'knowledge' | 'sessions' | 'handovers' | 'todos', Tally>;
export const emptyCounts = (): Counts => ({
  knowledge: { created: 0, updated: 0, unchanged: 0 },
  sessions: { created: 0, updated: 0, unchanged: 0 },
  handovers: { created: 0, updated: 0, unchanged: 0 },
  todos: { created: 0, updated: 0, unchanged: 0 },
});

export const IMPORT_TAG = 'memory-import';
export const refFor = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 20);
const ulidOf = (id: string) => id.slice(id.indexOf('_') + 1);

async function byRef(api: Api, ref: string, ws: Record<string, string>): Promise<{ id: string; kind: 'solution' | 'snippet'; e: KnowledgeJson }[]> {
  const r = await api.get('/knowledge', { tag: REF_TAG + ref, limit: 100, ...ws });
  return [...(r.solutions ?? []).map((e: KnowledgeJson) => ({ id: e.id, kind: 'solution' as const, e })), ...(r.snippets ?? []).map((e: KnowledgeJson) => ({ id: e.id, kind: 'snippet' as const, e }))].sort(
    (a, b) => (ulidOf(a.id) < ulidOf(b.id) ? -1 : 1),
  );
}

/** Creates or updates the knowledge entry carrying `k.ref`. */
export async function upsertKnowledge(api: Api, k: Omit<DigestKnowledge, 'id'>, ws: Record<string, string>, counts: Counts): Promise<void> {
  const fields = {
    title: k.title,
    content: k.content,
    ...(k.language ? { language: k.language } : {}),
    ...(k.kind === 'solution' ? { error: k.error ?? '' } : { description: k.description ?? '' }),
  };
  const found = await byRef(api, k.ref, ws);
  const same = found.find((f) => f.kind === k.kind);
  if (same) {
    const e = same.e;
    const unchanged = e.title === k.title && e.content === k.content && (k.kind === 'solution' ? (e.error ?? '') === (k.error ?? '') : (e.description ?? '') === (k.description ?? ''));
    if (unchanged) counts.knowledge.unchanged++;
    else {
      await api.send('PUT', `/knowledge/${same.id}`, fields);
      counts.knowledge.updated++;
    }
    return;
  }
  const created = await api.send('POST', '/knowledge', { ...fields, tags: [IMPORT_TAG, REF_TAG + k.ref], ...ws }, { type: `${k.kind}s` });
  const [oldest, ...newer] = await byRef(api, k.ref, ws);
  // Another run's copy may already be gone (it removed its own): a 404 is that, not an error.
  for (const copy of newer) await api.send('DELETE', `/knowledge/${copy.id}`).catch(ignoreNotFound);
  if (oldest && oldest.id !== created.id)
    counts.knowledge.unchanged++; // a concurrent run made it first
  else counts.knowledge.created++;
}

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof HttpError && err.status === 404)) throw err;
}

/** Turns an exported section back into records, skipping what this account already holds. */
export async function importDigest(api: Api, d: Digest, workspace: string | undefined, counts: Counts): Promise<void> {
  const ws: Record<string, string> = workspace ? { workspace_id: workspace } : {};
  const project = d.project;
  const { sessions: existing } = await api.get('/sessions', { project, limit: 100, fields: 'id,external_id,handover_id', ...ws });
  const byExternal = new Map<string, { id: string; handover_id: string | null }>(
    existing.filter((s: { external_id: string | null }) => s.external_id).map((s: { id: string; external_id: string; handover_id: string | null }) => [s.external_id, s]),
  );

  const h = d.handover;
  const order: DigestSession[] = [...d.sessions].reverse();
  if (h && !order.some((s) => s.id === h.sessionId)) {
    order.unshift({ id: h.sessionId, external: h.external, agent: null, title: h.sessionTitle, outcome: null, summary: h.summary, files: h.files, errors: [] });
  }
  for (const s0 of order) {
    const isHandover = h?.sessionId === s0.id;
    const s = isHandover ? { ...s0, title: h!.sessionTitle, summary: h!.summary || s0.summary, files: h!.files.length ? h!.files : s0.files } : s0;
    let target = (await api.find(`/sessions/${s.id}`))?.session as { id: string; handover_id: string | null } | undefined;
    const ext = s.external ?? `memory:${s.id}`;
    target ??= byExternal.get(ext);
    if (target) counts.sessions.unchanged++;
    else {
      const r = await api.send('PUT', `/sessions/external/${encodeURIComponent(ext)}`, {
        title: s.title,
        summary: s.summary || s.title,
        project,
        files_changed: s.files,
        errors: s.errors,
        ...(s.outcome ? { outcome: s.outcome } : {}),
        ...(s.agent ? { agent: s.agent } : {}),
        ...ws,
      });
      target = r.session;
      counts.sessions[r.created ? 'created' : 'unchanged']++;
    }
    if (!isHandover) continue;
    const current = target!.handover_id === undefined ? (await api.get(`/sessions/${target!.id}`)).session : target!;
    if (current.handover_id) counts.handovers.unchanged++;
    else {
      await api.send('POST', '/sessions/handover', { session_id: target!.id, next_steps: h!.steps, ...(h!.notes ? { notes: h!.notes } : {}), ...ws });
      counts.handovers.created++;
    }
  }

  if (d.todos.length) {
    const { todos } = await api.get('/todos', { project, ...ws });
    const have = new Set(todos.map((t: { content: string }) => t.content.trim()));
    const add = d.todos.filter((t) => !have.has(t.content.trim()));
    counts.todos.unchanged += d.todos.length - add.length;
    if (add.length) {
      const r = await api.send('POST', '/todos', { project, todos: [...add].reverse().map((t) => ({ content: t.content, status: t.status, priority: t.priority })), ...ws });
      counts.todos.created += r.created;
      counts.todos.unchanged += r.updated;
    }
  }

  // Oldest first, so the newest entries here are the newest there.
  for (const k of [...d.knowledge].sort((a, b) => (ulidOf(a.id) < ulidOf(b.id) ? -1 : 1))) {
    if (await api.find(`/knowledge/${k.id}`)) {
      counts.knowledge.unchanged++;
      continue;
    }
    await upsertKnowledge(api, k, ws, counts);
  }
}
