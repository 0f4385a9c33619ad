import type { Clock } from '../../clock.js';
import { normalizeForSearch } from '../search/substring/search-text.js';
import type { SessionsTable, Trx } from '../../db/types.js';
import { invalid, notFound } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { requireInWorkspace, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { CreateSessionInput, DistillView, FailedCommandView as FailedCommand, SessionView, UpdateSessionInput, UpsertSessionInput } from './sessions.schemas.js';

export function toSessionView(row: SessionsTable, handoverId: string | null = null, distill?: DistillView): SessionView {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    project: row.project,
    tags: JSON.parse(row.tags) as string[],
    files_changed: JSON.parse(row.files_changed) as string[],
    external_id: row.external_id,
    outcome: row.outcome,
    tasks_done: JSON.parse(row.tasks_done) as string[],
    tasks_open: JSON.parse(row.tasks_open) as string[],
    errors: JSON.parse(row.errors) as FailedCommand[],
    prompts: JSON.parse(row.prompts) as string[],
    agent: row.agent,
    source: row.source,
    handover_id: handoverId,
    distilled: distill?.distilled ?? null,
    distill_note: distill?.note ?? null,
    workspace_id: row.workspace_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Told of every session a write saved or changed, in the write's transaction (distillation queues it: src/modules/distill). */
export type SessionWritten = (trx: Trx, row: SessionsTable) => Promise<void>;

/** A call by id that names a workspace must name the session's (403 elsewhere, as for every record). */
export function requireSessionWorkspace(row: SessionsTable, wanted: string | undefined, why = ''): void {
  requireInWorkspace('session', row.id, row.workspace_id, wanted, why);
}

/** The fields a save or an update sets, in the order session.updated names them. */
const FIELDS = ['title', 'summary', 'project', 'tags', 'files_changed', 'outcome', 'tasks_done', 'tasks_open', 'errors', 'prompts', 'agent', 'source'] as const;
type Fields = Pick<SessionsTable, (typeof FIELDS)[number] | 'search_text'>;
type Written = Omit<Fields, 'search_text'>;

/** What q searches: title, summary, project and tags, and what a captured record says was done. */
function searchText(f: Written): string {
  const errors = (JSON.parse(f.errors) as FailedCommand[]).map((e) => `${e.command} ${e.error}`);
  return normalizeForSearch([f.title, f.summary, f.project ?? '', (JSON.parse(f.tags) as string[]).join(' '), f.outcome ?? '', ...(JSON.parse(f.tasks_done) as string[]), ...errors].join('\n'));
}

const withSearchText = (f: Written): Fields => ({ ...f, search_text: searchText(f) });
const json = (v: unknown) => JSON.stringify(v);

/** A save's fields: omitted optional ones are empty ("" project means none), so a PUT replaces them all. */
function savedFields(input: CreateSessionInput, source: SessionsTable['source'] = 'curated'): Fields {
  return withSearchText({
    title: input.title,
    summary: input.summary,
    project: input.project ? input.project : null,
    tags: json(input.tags ?? []),
    files_changed: json(input.files_changed ?? []),
    outcome: input.outcome || null,
    tasks_done: json(input.tasks_done ?? []),
    tasks_open: json(input.tasks_open ?? []),
    errors: json(input.errors ?? []),
    prompts: json(input.prompts ?? []),
    agent: input.agent ?? null,
    source,
  });
}

/** An update's fields: the given ones over the row's. A person's or the model's update makes the session curated. */
function patchedFields(row: SessionsTable, input: UpdateSessionInput): Fields {
  const given = <K extends keyof UpdateSessionInput>(k: K, stored: string) => (input[k] !== undefined ? json(input[k]) : stored);
  return withSearchText({
    title: input.title ?? row.title,
    summary: input.summary ?? row.summary,
    project: input.project === undefined ? row.project : input.project || null,
    tags: given('tags', row.tags),
    files_changed: given('files_changed', row.files_changed),
    outcome: input.outcome === undefined ? row.outcome : input.outcome || null,
    tasks_done: given('tasks_done', row.tasks_done),
    tasks_open: given('tasks_open', row.tasks_open),
    errors: given('errors', row.errors),
    prompts: given('prompts', row.prompts),
    agent: row.agent,
    source: 'curated',
  });
}

/**
 * A save over an existing session through its external_id. A curated save replaces title, summary,
 * project and tags as before, and the files and record fields only when given (what capture found is a
 * fact a curated save without it must not erase). A capture merges: it adds files, failed commands and tasks, and leaves a curated title, summary
 * and outcome as they are (issue 54: what a person or the model wrote is never replaced by capture).
 */
function upsertedFields(row: SessionsTable, input: UpsertSessionInput): Fields {
  const incoming = savedFields(input, input.source ?? 'curated');
  if (input.source !== 'capture') {
    type Kept = 'files_changed' | 'outcome' | 'tasks_done' | 'tasks_open' | 'errors' | 'prompts' | 'agent';
    const keep = <K extends Kept>(k: K): Fields[K] => (input[k] === undefined ? row[k] : incoming[k]);
    return withSearchText({
      ...incoming,
      files_changed: keep('files_changed'),
      outcome: keep('outcome'),
      tasks_done: keep('tasks_done'),
      tasks_open: keep('tasks_open'),
      errors: keep('errors'),
      prompts: keep('prompts'),
      agent: keep('agent'),
    });
  }
  const curated = row.source === 'curated';
  const done = union(row.tasks_done, incoming.tasks_done);
  const doneSet = new Set(JSON.parse(done) as string[]);
  const open = (JSON.parse(union(row.tasks_open, incoming.tasks_open)) as string[]).filter((t) => !doneSet.has(t));
  return withSearchText({
    title: curated ? row.title : incoming.title,
    summary: curated ? row.summary : incoming.summary,
    project: row.project ?? incoming.project,
    tags: union(row.tags, incoming.tags),
    files_changed: union(row.files_changed, incoming.files_changed),
    outcome: curated && row.outcome ? row.outcome : (incoming.outcome ?? row.outcome),
    tasks_done: done,
    tasks_open: json(open),
    errors: unionBy(row.errors, incoming.errors, (e: FailedCommand) => `${e.command}\u0000${e.error}`),
    prompts: (JSON.parse(incoming.prompts) as string[]).length ? incoming.prompts : row.prompts,
    agent: incoming.agent ?? row.agent,
    source: row.source,
  });
}

/** Two stored JSON arrays as one, first-seen order, no repeats. */
function union(a: string, b: string): string {
  return json([...new Set([...(JSON.parse(a) as string[]), ...(JSON.parse(b) as string[])])]);
}
function unionBy<T>(a: string, b: string, key: (v: T) => string): string {
  const seen = new Map<string, T>();
  for (const v of [...(JSON.parse(a) as T[]), ...(JSON.parse(b) as T[])]) if (!seen.has(key(v))) seen.set(key(v), v);
  return json([...seen.values()]);
}

/**
 * Creating, upserting and updating sessions: session.saved when a session is created, session.updated
 * (naming the changed fields) when a write changes one. A write that changes nothing keeps updatedAt
 * and fires nothing, so a client may save the same session as often as it likes.
 */
export function createSessionWrites(deps: { repo: SessionsRepo; access: WorkspaceAccess; outbox: Outbox; tx: TxRunner; clock: Clock; onWritten?: SessionWritten }) {
  const { repo, access, outbox, tx, clock } = deps;
  const written = deps.onWritten ?? (async () => {});

  async function insert(trx: Trx, caller: Caller, workspaceId: string, fields: Fields, externalId: string | null): Promise<SessionsTable | undefined> {
    const now = clock.now();
    const row: SessionsTable = { id: newId('ses', now.getTime()), workspace_id: workspaceId, user_id: caller.userId, ...fields, external_id: externalId, created_at: now.toISOString(), updated_at: null };
    if (externalId === null) await repo.insert(row, trx);
    else if (!(await repo.insertUnlessExternalTaken(row, trx))) return undefined;
    await outbox.emit(trx, workspaceId, 'session.saved', { session_id: row.id, title: row.title }, caller.userId);
    await written(trx, row);
    return row;
  }

  async function change(trx: Trx, caller: Caller, row: SessionsTable, fields: Fields): Promise<SessionsTable> {
    const changes = FIELDS.filter((f) => fields[f] !== row[f]);
    if (changes.length === 0) return row;
    const updatedAt = clock.now().toISOString();
    await repo.update(row.id, { ...fields, updated_at: updatedAt }, trx);
    await outbox.emit(trx, row.workspace_id, 'session.updated', { session_id: row.id, title: fields.title, changes, updated_at: updatedAt }, caller.userId);
    const changed = { ...row, ...fields, updated_at: updatedAt };
    await written(trx, changed);
    return changed;
  }

  /** An existing session as the API shows it, with its newest handover and distillation. */
  async function viewOf(trx: Trx, row: SessionsTable): Promise<SessionView> {
    return toSessionView(row, (await repo.newestHandovers([row.id], trx)).get(row.id) ?? null, (await repo.distills([row.id], trx)).get(row.id));
  }

  // Access is decided before the transaction opens: a team workspace's role is read on the database,
  // which on SQLite would wait for the very connection the transaction holds.
  return {
    async create(caller: Caller, input: CreateSessionInput) {
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.write');
      return tx(async (trx) => toSessionView((await insert(trx, caller, workspaceId, savedFields(input), null))!));
    },

    /**
     * The workspace's session with this external_id gets the input's fields, or is created with them.
     * The insert goes through the unique (workspace_id, external_id) index, so concurrent upserts of one
     * reference make exactly one row: the losers find it (PostgreSQL waits for the winner's commit).
     */
    async upsert(caller: Caller, externalId: string, input: UpsertSessionInput) {
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.write');
      const fields = savedFields(input, input.source ?? 'curated');
      return tx(async (trx) => {
        // Twice at most: a session is never deleted, so a taken reference is found on the second look.
        for (let attempt = 0; attempt < 2; attempt++) {
          const created = await insert(trx, caller, workspaceId, fields, externalId);
          if (created) return { created: true, session: toSessionView(created) };
          const existing = await repo.findByExternalIdLocked(workspaceId, externalId, trx);
          if (existing) return { created: false, session: await viewOf(trx, await change(trx, caller, existing, upsertedFields(existing, input))) };
        }
        throw new Error(`session external_id kept changing under upsert (owner ${workspaceId})`);
      });
    },

    async update(caller: Caller, id: string, input: UpdateSessionInput, opts: { workspace_id?: string } = {}) {
      const updatable = FIELDS.filter((f) => f !== 'agent' && f !== 'source');
      if (updatable.every((f) => input[f as keyof UpdateSessionInput] === undefined)) throw invalid(`body must give at least one of ${updatable.join(', ')}`);
      requireSessionWorkspace(await access.ownedRow(await repo.findById(id), caller, 'session', id, 'records.write'), opts.workspace_id);
      return tx(async (trx) => {
        // A session never changes workspace, so the check above holds for the locked row.
        const row = await repo.findByIdLocked(id, trx);
        if (!row) throw notFound('session', id); // its workspace was deleted meanwhile
        return viewOf(trx, await change(trx, caller, row, patchedFields(row, input)));
      });
    },
  };
}
