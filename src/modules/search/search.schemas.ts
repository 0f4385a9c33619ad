import { z } from 'zod';
import { Timestamp, WorkspaceIdView, queryInt } from '../../lib/schema-fields.js';
import { WORKSPACE_ID } from '../../lib/workspace-ids.js';
import { SEARCH_KINDS, TOTAL_CAP } from './search.engine.js';

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_OFFSET_MAX = 950;
export const SEARCH_Q_MAX = 2000;

const typesError = `types must be a comma-separated list of: ${SEARCH_KINDS.join(', ')}`;
const kindsFrom = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** `types` as the query string gives it (sheet,session) or as MCP gives it (a list, or the same string). */
export const SearchTypes = z
  .union([z.string(), z.array(z.string())], { error: typesError })
  .transform((v, ctx) => {
    const kinds = Array.isArray(v) ? v.flatMap(kindsFrom) : kindsFrom(v);
    const unknown = kinds.find((k) => !(SEARCH_KINDS as readonly string[]).includes(k));
    if (unknown !== undefined || kinds.length === 0) {
      ctx.addIssue({ code: 'custom', message: unknown !== undefined ? `${typesError} (not ${JSON.stringify(unknown).slice(0, 60)})` : typesError });
      return z.NEVER;
    }
    return [...new Set(kinds)] as (typeof SEARCH_KINDS)[number][];
  })
  .describe(`Which kinds to search, comma-separated: ${SEARCH_KINDS.join(', ')} (handover sheets are sheets). Default: every kind your credential may read.`);

const q = z
  .string({ error: 'q is required: the words to search for' })
  .max(SEARCH_Q_MAX, `q must be at most ${SEARCH_Q_MAX} characters`)
  .refine((s) => s.trim().length > 0, 'q must not be empty')
  .describe(
    'What to look for, in your own words, or a pasted error line, file path or identifier. Words are ranked, not all required; ' +
      'other word forms (migrate, migrated), identifier parts (jwtVerify, busy_timeout) and Japanese, Chinese and Korean match.',
  );
const project = z.string().min(1, 'project must not be empty').max(200, 'project must be at most 200 characters');
const workspaceId = z
  .string()
  .regex(WORKSPACE_ID, 'workspace_id must be a workspace id (wsp_...), as GET /v1/workspaces lists them')
  .optional()
  .describe('Search only this workspace. Default: every workspace you can read (only its own for a key restricted to one).');
const limitMessage = `limit must be between 1 and ${SEARCH_LIMIT_MAX}`;
const offsetMessage = `offset must be at most ${SEARCH_OFFSET_MAX}`;

export const SearchQuery = z.object({
  q,
  types: SearchTypes.optional(),
  project: project.optional().describe('Only records of this project (sessions, todos and handover sheets name one).'),
  prefer_project: project.optional().describe('Rank records of this project first, without leaving the others out.'),
  workspace_id: workspaceId,
  limit: queryInt('limit').pipe(z.number().min(1, limitMessage).max(SEARCH_LIMIT_MAX, limitMessage)).optional().describe(`Default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}.`),
  offset: queryInt('offset').pipe(z.number().max(SEARCH_OFFSET_MAX, offsetMessage)).optional().describe(`Results to skip (paging), at most ${SEARCH_OFFSET_MAX}.`),
});

/** The MCP tool's arguments: the same, with numbers as numbers. */
export const SearchToolInput = z.object({
  q,
  types: SearchTypes.optional(),
  project: project.optional().describe('Only records of this project.'),
  prefer_project: project.optional().describe('Rank records of this project first, without leaving the others out (pass the current project).'),
  workspace_id: workspaceId,
  limit: z.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(SEARCH_LIMIT_MAX, limitMessage).optional().describe(`Default ${SEARCH_LIMIT_DEFAULT}.`),
  offset: z.number({ error: offsetMessage }).int(offsetMessage).min(0, offsetMessage).max(SEARCH_OFFSET_MAX, offsetMessage).optional(),
});
export type SearchInput = z.output<typeof SearchQuery>;

export const SearchResult = z
  .object({
    type: z.enum(SEARCH_KINDS),
    id: z.string(),
    title: z.string(),
    snippet: z.string().describe('Where the words matched, as plain text of at most 300 characters.'),
    project: z.string().nullable(),
    score: z.number().describe('Relevance (higher is better); comparable within one search only.'),
    updatedAt: Timestamp,
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'SearchResult' });
export type SearchResultView = z.infer<typeof SearchResult>;

export const SearchResponse = z.object({
  success: z.literal(true),
  results: z.array(SearchResult),
  total: z.number().int().describe(`How many records match at least one word, counted up to ${TOTAL_CAP} (the most a search pages through).`),
  total_capped: z.boolean().describe(`true when more than ${TOTAL_CAP} records match (total then says ${TOTAL_CAP}).`),
});
