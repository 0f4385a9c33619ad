import type { Clock } from '../../clock.js';
import { normalizeForSearch } from '../search/substring/search-text.js';
import type { KnowledgeTable, Trx } from '../../db/types.js';
import { invalid, notFound, versionConflict } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import { newId } from '../../ids.js';
import { pickFields } from '../../lib/fields.js';
import { bestSnippet } from '../search/substring/list-snippet.js';
import { type Caller, type WorkspaceAccess, type InWorkspace } from '../workspaces/workspaces.access.js';
import { errorSearchTerms } from '../search/substring/error-terms.js';
import type { KnowledgeRepo } from './knowledge.repo.js';
import { KIND_OF, type CreateKnowledgeInput, type KnowledgeKind, type KnowledgeType, type SnippetView, type SolutionView, type UpdateKnowledgeInput } from './knowledge.schemas.js';

export const LIST_DEFAULT = 20;
export const LIST_MAX = 100;

/** Fields that belong to one kind only; sending them for the other kind is a 400, not a silent drop. */
const ONLY_FOR: Record<'error' | 'description', KnowledgeKind> = { error: 'solution', description: 'snippet' };

export type KnowledgeEntry = { type: 'solution'; solution: SolutionView } | { type: 'snippet'; snippet: SnippetView };

export function toEntry(row: KnowledgeTable): KnowledgeEntry {
  const base = {
    id: row.id,
    title: row.title,
    content: row.content,
    language: row.language,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    version: row.version,
    workspace_id: row.workspace_id,
  };
  if (row.type === 'solution') {
    const { id, title, content, language, tags, createdAt, version, workspace_id } = base;
    return { type: 'solution', solution: { id, title, error: row.error, content, language, tags, createdAt, version, workspace_id } };
  }
  return { type: 'snippet', snippet: { ...base, description: row.description } };
}

/** What q searches: title, error, content and description. */
function knowledgeSearchText(r: Pick<KnowledgeTable, 'title' | 'error' | 'content' | 'description'>): string {
  return normalizeForSearch([r.title, r.error ?? '', r.content, r.description ?? ''].join('\n'));
}

function checkFieldsFit(kind: KnowledgeKind, input: { error?: unknown; description?: unknown }) {
  for (const field of ['error', 'description'] as const) {
    if (input[field] !== undefined && ONLY_FOR[field] !== kind) {
      throw invalid(`field '${field}' is only accepted for ${ONLY_FOR[field]}s, not ${kind}s`);
    }
  }
}

export function createKnowledgeService(deps: { repo: KnowledgeRepo; access: WorkspaceAccess; outbox: Outbox; tx: TxRunner; clock: Clock }) {
  const { repo, access, outbox, tx, clock } = deps;

  /**
   * The entry when the caller may do `action` with it. Checked before any transaction: on SQLite the
   * role lookup cannot run inside one (its one connection is held). An entry never changes workspace,
   * so the check still holds for the row the transaction locks later.
   */
  async function permitted(caller: Caller, id: string, action: 'records.read' | 'records.write', opts: InWorkspace = {}) {
    return access.ownedRow(await repo.findById(id), caller, 'knowledge entry', id, action, opts.workspace_id);
  }

  /** The row locked until the transaction ends, so a read-modify-write cannot lose a concurrent one. */
  async function locked(id: string, trx: Trx) {
    const row = await repo.findByIdLocked(id, trx);
    if (!row) throw notFound('knowledge entry', id);
    return row;
  }

  async function listKind(workspaceId: string, kind: KnowledgeKind, query: { q?: string; tag?: string; limit?: number; offset?: number }) {
    return repo.list({ workspaceId, kind, ...errorSearchTerms(query.q), tag: query.tag, limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX), offset: query.offset });
  }

  return {
    /** With type, one list; without, both (decisions.md). */
    async list(caller: Caller, query: { type?: KnowledgeType; q?: string; tag?: string; limit?: number; offset?: number; fields?: string[]; workspace_id?: string }) {
      const workspaceId = await access.workspaceFor(caller, query.workspace_id, 'records.read');
      const { terms } = errorSearchTerms(query.q);
      const listed = <T extends SolutionView | SnippetView>(view: T, texts: (string | null)[]) => {
        const item = pickFields(view, query.fields);
        return terms.length ? { ...item, snippet: bestSnippet([...texts, view.content, view.title], terms) } : item;
      };
      type Listed<T> = Partial<T> & { id: string; snippet?: string };
      const out: { solutions?: Listed<SolutionView>[]; snippets?: Listed<SnippetView>[] } = {};
      if (query.type !== 'snippets') {
        out.solutions = (await listKind(workspaceId, 'solution', query)).map((r) => {
          const v = (toEntry(r) as { solution: SolutionView }).solution;
          return listed(v, [v.error]);
        });
      }
      if (query.type !== 'solutions') {
        out.snippets = (await listKind(workspaceId, 'snippet', query)).map((r) => {
          const v = (toEntry(r) as { snippet: SnippetView }).snippet;
          return listed(v, [v.description]);
        });
      }
      return out;
    },

    async get(caller: Caller, id: string, opts?: InWorkspace) {
      return toEntry(await permitted(caller, id, 'records.read', opts));
    },

    /** How many entries of each listed kind match q and tag, ignoring limit (for lists that report a total). */
    async counts(caller: Caller, query: { type?: KnowledgeType; q?: string; tag?: string; workspace_id?: string }) {
      const workspaceId = await access.workspaceFor(caller, query.workspace_id, 'records.read');
      const f = { workspaceId, ...errorSearchTerms(query.q), tag: query.tag };
      return {
        solutions: query.type === 'snippets' ? undefined : await repo.count({ ...f, kind: 'solution' }),
        snippets: query.type === 'solutions' ? undefined : await repo.count({ ...f, kind: 'snippet' }),
      };
    },

    async create(caller: Caller, type: KnowledgeType, input: CreateKnowledgeInput) {
      const kind = KIND_OF[type];
      checkFieldsFit(kind, input);
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.write');
      return tx(async (trx) => {
        const now = clock.now();
        const fields = { title: input.title, content: input.content, error: input.error ?? null, description: input.description ?? null };
        const row: KnowledgeTable = {
          id: newId(kind === 'solution' ? 'sol' : 'snp', now.getTime()),
          workspace_id: workspaceId,
          user_id: caller.userId,
          type: kind,
          ...fields,
          language: input.language ?? null,
          tags: JSON.stringify(input.tags ?? []),
          search_text: knowledgeSearchText(fields),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          version: 1,
        };
        await repo.insert(row, trx);
        await outbox.emit(trx, workspaceId, 'knowledge.saved', { type: kind, id: row.id, title: row.title }, caller.userId);
        return toEntry(row);
      });
    },

    /**
     * Partial update. A change is a save, so it fires knowledge.saved and bumps the version; an update
     * that changes nothing fires nothing and keeps the version. `expected` (If-Match / expected_version)
     * is checked against the locked row.
     */
    async update(caller: Caller, id: string, input: UpdateKnowledgeInput, expected?: ExpectedVersions, opts?: InWorkspace) {
      await permitted(caller, id, 'records.write', opts);
      return tx(async (trx) => {
        const row = await locked(id, trx);
        checkFieldsFit(row.type, input);
        if (expected && !expected.includes(row.version)) throw versionConflict('knowledge entry', id, row.version);
        const next: KnowledgeTable = { ...row };
        if (input.title !== undefined) next.title = input.title;
        if (input.content !== undefined) next.content = input.content;
        if (input.language !== undefined) next.language = input.language;
        if (input.error !== undefined) next.error = input.error;
        if (input.description !== undefined) next.description = input.description;
        if (input.tags !== undefined) next.tags = JSON.stringify(input.tags);
        const fields = ['title', 'content', 'language', 'error', 'description', 'tags'] as const;
        if (fields.every((f) => next[f] === row[f])) return toEntry(row);

        next.search_text = knowledgeSearchText(next);
        next.updated_at = clock.now().toISOString();
        next.version = row.version + 1;
        const { id: _id, workspace_id: _workspace, user_id: _user, type: _type, created_at: _created, ...patch } = next;
        await repo.update(id, patch, trx);
        await outbox.emit(trx, row.workspace_id, 'knowledge.saved', { type: next.type, id, title: next.title }, caller.userId);
        return toEntry(next);
      });
    },

    async remove(caller: Caller, id: string, expected?: ExpectedVersions, opts?: InWorkspace) {
      await permitted(caller, id, 'records.write', opts);
      return tx(async (trx) => {
        const row = await locked(id, trx);
        if (expected && !expected.includes(row.version)) throw versionConflict('knowledge entry', id, row.version);
        await repo.remove(id, trx);
        return { id, type: row.type, deleted: true as const };
      });
    },
  };
}
export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
