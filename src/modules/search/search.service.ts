import type { Kysely } from 'kysely';
import { hasScope, type Granted } from '../../auth/scopes.js';
import { dialectOf } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import type { Caller, WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { WorkspacesRepo } from '../workspaces/workspaces.repo.js';
import type { EmbeddingsConfig } from './search.embed-client.js';
import { createSemanticSearch } from './search.embed.js';
import { queueKindOf, readRecords, type RecordText } from './search.documents.js';
import { SEARCH_KINDS, TOTAL_CAP, type SearchAdapter, type SearchKind } from './search.engine.js';
import { createSearchIndexer } from './search.indexer.js';
import { pgSearch } from './search.pg.js';
import { rerank } from './search.rank.js';
import { SEARCH_LIMIT_DEFAULT, type SearchInput, type SearchResultView } from './search.schemas.js';
import { searchSnippet } from './search.snippet.js';
import { sqliteSearch } from './search.sqlite.js';
import { queryTerms } from './search.tokenize.js';

/** The scope that reads each kind: a credential without it never sees that kind in a search. */
export const KIND_SCOPE: Record<SearchKind, string> = {
  sheet: 'sheets:read',
  session: 'sessions:read',
  solution: 'knowledge:read',
  snippet: 'knowledge:read',
  todo: 'todos:read',
};
export const SEARCH_SCOPES = [...new Set(Object.values(KIND_SCOPE))];

/** Candidates ranked in the service beyond the page asked for (recency and project reorder within them). */
const WINDOW_EXTRA = 100;

export interface SearchDeps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>;
  access: WorkspaceAccess;
  workspaces: Pick<WorkspacesRepo, 'listForUser'>;
  onIndexError?: (err: unknown) => void;
  /** Optional semantic search (EMBEDDINGS_URL, EMBEDDINGS_MODEL): absent, nothing is embedded and nothing is called. */
  embeddings?: EmbeddingsConfig;
  onEmbedError?: (err: unknown, message: string) => void;
}

export function createSearchService(deps: SearchDeps) {
  const adapter: SearchAdapter = dialectOf(deps.db) === 'postgres' ? pgSearch : sqliteSearch;
  const indexer = createSearchIndexer(deps.db, adapter, deps.onIndexError ?? (() => undefined));
  const semantic = deps.embeddings ? createSemanticSearch({ db: deps.db, config: deps.embeddings, drainIndex: () => indexer.drain(), onError: deps.onEmbedError ?? (() => undefined) }) : undefined;

  /** The kinds searched: those asked for (default all), each needing its read scope. */
  function kindsFor(scopes: Granted | undefined, asked: SearchKind[] | undefined): SearchKind[] {
    if (asked) {
      const missing = asked.find((k) => !hasScope(scopes, KIND_SCOPE[k]));
      if (missing) {
        throw new AppError('insufficient_scope', `This credential lacks the scope ${KIND_SCOPE[missing]}, which searching ${missing} records needs`, undefined, {
          required_scope: KIND_SCOPE[missing],
        });
      }
      return asked;
    }
    const allowed = SEARCH_KINDS.filter((k) => hasScope(scopes, KIND_SCOPE[k]));
    if (allowed.length === 0) {
      throw new AppError('insufficient_scope', `Search needs at least one of the scopes ${SEARCH_SCOPES.join(', ')}`, undefined, { required_scope: SEARCH_SCOPES[0] });
    }
    return allowed;
  }

  /**
   * The workspaces searched (the index's owner keys): the one asked for, else every workspace the caller
   * reads (a restricted key: its own only). Each is decided by access.workspaceFor, the one place that decides.
   */
  async function ownerKeys(caller: Caller, workspaceId: string | undefined): Promise<string[]> {
    if (workspaceId !== undefined || caller.workspaceId) return [await deps.access.workspaceFor(caller, workspaceId, 'records.read')];
    const keys = [personalWorkspaceId(caller.userId)];
    for (const w of await deps.workspaces.listForUser(caller.userId)) {
      if (w.personal) continue;
      try {
        keys.push(await deps.access.workspaceFor(caller, w.id, 'records.read'));
      } catch {
        // A workspace this caller may not read records of is left out, not an error.
      }
    }
    return [...new Set(keys)];
  }

  /** The current text of the page's records (for title, project and snippet), by kind:id. */
  async function texts(page: { kind: SearchKind; record_id: string }[]): Promise<Map<string, RecordText>> {
    const byKind = new Map<ReturnType<typeof queueKindOf>, string[]>();
    for (const p of page) {
      const k = queueKindOf(p.kind);
      byKind.set(k, [...(byKind.get(k) ?? []), p.record_id]);
    }
    const out = new Map<string, RecordText>();
    for (const [kind, ids] of byKind) for (const r of await readRecords(deps.db, kind, ids)) out.set(`${r.kind}:${r.id}`, r);
    return out;
  }

  return {
    indexer,
    /** Semantic search's background embedder; undefined unless configured. */
    embedder: semantic?.embedder,

    async search(caller: Caller & { scopes?: Granted }, input: SearchInput): Promise<{ success: true; results: SearchResultView[]; total: number; total_capped: boolean }> {
      const kinds = kindsFor(caller.scopes, input.types);
      const keys = await ownerKeys(caller, input.workspace_id);
      const terms = queryTerms(input.q);
      if (terms.length === 0) return { success: true, results: [], total: 0, total_capped: false };
      await indexer.catchUp();
      const limit = input.limit ?? SEARCH_LIMIT_DEFAULT;
      const offset = input.offset ?? 0;
      const window = offset + limit + WINDOW_EXTRA;
      const keyword = await adapter.query(deps.db, { terms, ownerKeys: keys, kinds, project: input.project, window });
      let { candidates, total } = keyword;
      if (semantic) {
        const fused = await semantic.fused(candidates, { text: input.q, ownerKeys: keys, kinds, project: input.project, window });
        candidates = fused.candidates;
        total += fused.added;
      }
      const page = rerank(candidates, input.prefer_project, terms).slice(offset, offset + limit);
      const current = await texts(page);
      const results: SearchResultView[] = [];
      for (const p of page) {
        const text = current.get(`${p.kind}:${p.record_id}`);
        // Gone since the index was read (deleted a moment ago): left out.
        if (!text) continue;
        const body = [text.err, text.body, text.meta].filter((s) => s).join('\n');
        results.push({
          type: p.kind,
          id: p.record_id,
          title: text.title,
          snippet: searchSnippet(body || text.title, terms),
          project: text.project,
          score: Number(p.score.toFixed(4)),
          updatedAt: text.updated_at,
          workspace_id: text.owner_key,
        });
      }
      return { success: true, results, total: Math.min(total, TOTAL_CAP), total_capped: total > TOTAL_CAP };
    },

    async close() {
      await semantic?.embedder.close();
      await indexer.close();
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
