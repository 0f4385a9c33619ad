import { z } from 'zod';
import { Tags, Timestamp, WorkspaceIdInput, WorkspaceIdView, queryInt, expectedVersionField } from '../../lib/schema-fields.js';
import { SnippetField, fieldsQuery } from '../../lib/fields.js';

export const KNOWLEDGE_TYPES = ['solutions', 'snippets'] as const;
export type KnowledgeType = (typeof KNOWLEDGE_TYPES)[number];
export type KnowledgeKind = 'solution' | 'snippet';
export const KIND_OF: Record<KnowledgeType, KnowledgeKind> = { solutions: 'solution', snippets: 'snippet' };

const typeError = { error: 'type must be one of: solutions, snippets' };

export const Solution = z
  .object({
    id: z.string(),
    title: z.string(),
    error: z.string().nullable(),
    content: z.string(),
    language: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: Timestamp,
    version: z.number().int().describe('1 at creation, +1 on every change.'),
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'Solution' });
export const Snippet = z
  .object({
    id: z.string(),
    title: z.string(),
    content: z.string().describe('The code.'),
    language: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: Timestamp,
    version: z.number().int().describe('1 at creation, +1 on every change.'),
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'Snippet' });
export type SolutionView = z.infer<typeof Solution>;
export type SnippetView = z.infer<typeof Snippet>;

export const ListKnowledgeQuery = z.object({
  type: z.enum(KNOWLEDGE_TYPES, typeError).optional().describe('Omitted: both lists are returned.'),
  q: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'Words searched in title, error, content and description, case-insensitively (works for CJK). Paste a whole error message: ' +
        'entries containing at least two of its words (all, with fewer) are listed, those matching the most words first; ' +
        'punctuation, numbers and words like "is" or "the" are ignored.',
    ),
  tag: z.string().max(100).optional().describe('Only entries carrying exactly this tag (case-sensitive).'),
  limit: queryInt('limit').optional().describe('Per list. Default 20; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional().describe('Entries to skip, per list (paging; total says how many match).'),
  fields: fieldsQuery([...new Set([...Object.keys(Solution.shape), ...Object.keys(Snippet.shape)])]).optional(),
  workspace_id: WorkspaceIdInput,
});
export const CreateKnowledgeQuery = z.object({
  type: z.enum(KNOWLEDGE_TYPES, typeError).describe('Which kind to save: solutions or snippets.'),
});

const Title = z.string().trim().min(1, 'title must not be empty').max(1000);
const Content = z.string().min(1, 'content must not be empty').max(500_000);
const Short = z.string().max(100);
const Long = z.string().max(100_000);

export const CreateKnowledgeBody = z.object({
  title: Title,
  content: Content,
  language: Short.optional(),
  tags: Tags.optional(),
  error: Long.optional().describe('Solutions only: the error message text.'),
  description: Long.optional().describe('Snippets only: what the snippet does.'),
  workspace_id: WorkspaceIdInput,
});
export type CreateKnowledgeInput = z.infer<typeof CreateKnowledgeBody>;

export const UpdateKnowledgeBody = z.object({
  title: Title.optional(),
  content: Content.optional(),
  language: Short.nullable().optional(),
  tags: Tags.optional(),
  error: Long.nullable().optional().describe('Solutions only; null clears it.'),
  description: Long.nullable().optional().describe('Snippets only; null clears it.'),
  expected_version: expectedVersionField,
});
export type UpdateKnowledgeInput = z.infer<typeof UpdateKnowledgeBody>;

const Kind = z.enum(['solution', 'snippet']);
const listed = 'With the fields chosen by fields= (all by default), plus snippet when q is given.';
export const SolutionListItem = Solution.partial().extend({ id: z.string(), snippet: SnippetField.optional() }).meta({ id: 'SolutionListItem', description: listed });
export const SnippetListItem = Snippet.partial().extend({ id: z.string(), snippet: SnippetField.optional() }).meta({ id: 'SnippetListItem', description: listed });
export const ListKnowledgeResponse = z.object({
  success: z.literal(true),
  solutions: z.array(SolutionListItem).optional().describe('Present unless type=snippets.'),
  snippets: z.array(SnippetListItem).optional().describe('Present unless type=solutions.'),
  total: z.number().int().describe('How many entries match, over the lists returned (limit and offset apply to each list).'),
});
export const KnowledgeEntryResponse = z.object({
  success: z.literal(true),
  type: Kind,
  solution: Solution.optional().describe('Present when type is solution.'),
  snippet: Snippet.optional().describe('Present when type is snippet.'),
});
export const CreateKnowledgeResponse = KnowledgeEntryResponse.extend({ id: z.string() });
export const DeleteKnowledgeResponse = z.object({ success: z.literal(true), id: z.string(), type: Kind, deleted: z.literal(true) });
