import { z } from 'zod';
import { IdParams, Timestamp, WorkspaceIdInput, WorkspaceIdView, queryInt } from '../../lib/schema-fields.js';

export const SuggestionParams = IdParams;

export const ListSuggestionsQuery = z.object({
  workspace_id: WorkspaceIdInput,
  limit: queryInt('limit').optional().describe('Default 50; values above 200 are clamped to 200.'),
  offset: queryInt('offset').optional(),
});

export const KnowledgeSuggestion = z
  .object({
    id: z.string(),
    session_id: z.string().describe('The session whose distillation suggested it.'),
    title: z.string(),
    error: z.string().describe('The error as the session met it.'),
    fix: z.string().describe("What fixed it; becomes the solution's content when accepted."),
    created_at: Timestamp,
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'KnowledgeSuggestion' });

export const ListSuggestionsResponse = z.object({
  success: z.literal(true),
  suggestions: z.array(KnowledgeSuggestion).describe('Pending suggestions of the workspace, newest first.'),
});
export const AcceptSuggestionResponse = z.object({
  success: z.literal(true),
  id: z.string().describe('The new solution (knowledge entry).'),
  suggestion_id: z.string(),
});
export const DismissSuggestionResponse = z.object({ success: z.literal(true), id: z.string(), dismissed: z.literal(true) });

export const DistillUsageResponse = z.object({
  success: z.literal(true),
  usage: z.object({
    enabled: z.boolean().describe('false unless DISTILL=1 and an AI provider is configured: then nothing is ever sent.'),
    model: z.string().nullable(),
    day: z.string().describe('The UTC day counted (YYYY-MM-DD).'),
    tokens_in: z.number().int(),
    tokens_out: z.number().int(),
    tokens: z.number().int().describe('tokens_in + tokens_out: what the daily cap counts.'),
    runs: z.number().int().describe('Provider calls made for your sessions today.'),
    daily_cap: z.number().int().describe('DISTILL_DAILY_TOKENS: past it, sessions wait until the next UTC day with a note.'),
  }),
});
