import { z } from 'zod';
import type { KnowledgeService } from '../../modules/knowledge/knowledge.service.js';
import { IdParams, recordInWorkspace, expectedVersionField } from '../../lib/schema-fields.js';
import {
  CreateKnowledgeBody,
  CreateKnowledgeQuery,
  CreateKnowledgeResponse,
  DeleteKnowledgeResponse,
  KnowledgeEntryResponse,
  ListKnowledgeQuery,
  ListKnowledgeResponse,
  UpdateKnowledgeBody,
} from '../../modules/knowledge/knowledge.schemas.js';
import { McpPage } from '../paging.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';
import { expectedVersions } from '../../auth/expected-versions.js';

const EntryId = IdParams.shape.id.describe('Knowledge entry id: sol_... (solution) or snp_... (snippet).');
/** What search_knowledge shows of each entry (plus snippet with q); get_knowledge has all its fields. */
export const COMPACT_KNOWLEDGE_FIELDS = ['title', 'language', 'tags', 'createdAt', 'version', 'workspace_id'];
const SearchInput = ListKnowledgeQuery.omit({ fields: true }).extend({ limit: McpPage.limit.describe('Per list. Default 20, at most 100.'), offset: McpPage.offset.describe('Entries to skip, per list.') });
const InWorkspace = recordInWorkspace('entry');
const Counted = z.object({ total: z.number().int(), has_more: z.boolean() });

/** The services these tools call. */
export interface KnowledgeToolDeps {
  knowledge: KnowledgeService;
}

export function registerKnowledgeTools(t: ToolRegistry, deps: KnowledgeToolDeps): void {
  t.define('search_knowledge', {
    title: 'Search the knowledge base',
    description:
      'Search saved solutions to errors and saved code snippets. Paste the whole error message (or key words) as q: entries are ranked by how many of its words ' +
      'they contain (title, error, content, description), best first, so extra codes and paths do not hide a solution. type=solutions or type=snippets narrows to one list; omitted searches both. ' +
      'Check here before debugging an error from scratch. Each list reports total and has_more. ' +
      'Items are compact (id, title, language, tags, createdAt, version, workspace_id; with q a snippet around the match): get_knowledge returns an entry whole. ' +
      'workspace_id searches a team workspace (default: your personal one).',
    input: SearchInput,
    output: ListKnowledgeResponse.extend({ solutions_page: Counted.optional(), snippets_page: Counted.optional() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => {
      const [lists, totals] = await Promise.all([deps.knowledge.list(auth, { ...args, fields: COMPACT_KNOWLEDGE_FIELDS }), deps.knowledge.counts(auth, args)]);
      const page = (items: unknown[] | undefined, total: number | undefined) => (items && total !== undefined ? { total, has_more: (args.offset ?? 0) + items.length < total } : undefined);
      return {
        success: true as const,
        ...lists,
        total: (totals.solutions ?? 0) + (totals.snippets ?? 0),
        solutions_page: page(lists.solutions, totals.solutions),
        snippets_page: page(lists.snippets, totals.snippets),
      };
    },
  });

  t.define('save_knowledge', {
    creates: true,
    title: 'Save a solution or snippet',
    description:
      'Save to the knowledge base. type=solutions: a fix for an error (title, error = the error message, content = what fixed it, language, tags). ' +
      'type=snippets: reusable code (title, content = the code, language, description, tags). Save a solution after solving a non-obvious error. ' +
      'workspace_id saves into a team workspace (default: your personal one). Fires knowledge.saved.',
    input: CreateKnowledgeQuery.extend(CreateKnowledgeBody.shape),
    queryFields: ['type'],
    output: CreateKnowledgeResponse,
    annotations: ADDITIVE,
    run: async ({ type, ...body }, auth) => {
      const entry = await deps.knowledge.create(auth, type, body);
      return { success: true as const, id: entry.type === 'solution' ? entry.solution.id : entry.snippet.id, ...entry };
    },
  });

  t.define('get_knowledge', {
    title: 'Get a knowledge entry',
    description: 'Fetch one saved solution (sol_...) or code snippet (snp_...) by id, with all its fields.',
    input: z.object({ id: EntryId, workspace_id: InWorkspace }),
    output: KnowledgeEntryResponse,
    annotations: READ_ONLY,
    run: async ({ id, workspace_id }, auth) => ({ success: true as const, ...(await deps.knowledge.get(auth, id, { workspace_id })) }),
  });

  t.define('update_knowledge', {
    title: 'Update a knowledge entry',
    description:
      'Change fields of a solution or snippet; fields not sent stay, null clears language/error/description. Fires knowledge.saved when something changed. ' +
      'expected_version: change only if the entry is still at that version (else a version_conflict error naming current_version).',
    input: UpdateKnowledgeBody.extend({ id: EntryId, workspace_id: InWorkspace }),
    output: KnowledgeEntryResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, expected_version, workspace_id, ...patch }, auth) => ({
      success: true as const,
      ...(await deps.knowledge.update(auth, id, patch, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });

  t.define('delete_knowledge', {
    title: 'Delete a knowledge entry',
    description: 'Remove a solution or snippet for good. Only when the user asked for it.',
    input: z.object({ id: EntryId, expected_version: expectedVersionField, workspace_id: InWorkspace }),
    output: DeleteKnowledgeResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({
      success: true as const,
      ...(await deps.knowledge.remove(auth, args.id, expectedVersions(undefined, args.expected_version), { workspace_id: args.workspace_id })),
    }),
  });
}
