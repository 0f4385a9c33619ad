import { z } from 'zod';
import { CreateSheetBody } from '../sheets/sheets.schemas.js';
import { CreateSessionBody, SESSION_SOURCES } from '../sessions/sessions.schemas.js';
import { CreateKnowledgeBody } from '../knowledge/knowledge.schemas.js';
import { SyncTodoItem } from '../todos/todos.schemas.js';
import { WorktimeBody } from '../stats/stats.schemas.js';
import { CreateSparkBody } from '../sparks/sparks.schemas.js';
import { CreateWebhookBody } from '../webhooks/webhooks.schemas.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from './account.export.js';

/**
 * What `users import` accepts: the records of an account export, each checked by the same schema that
 * checks the REST request creating it, so an import can store nothing the API would refuse.
 */
const SheetState = CreateSheetBody.extend({ folder: z.string().max(200).nullable().optional() });
export const ImportedSheetLine = z.object({
  sheet: SheetState.extend({ id: z.string().min(1), trashedAt: z.string().nullable() }),
  revisions: z.array(SheetState.extend({ version: z.number().int() })),
});
export const ImportedSession = CreateSessionBody.extend({
  id: z.string().min(1),
  project: z.string().trim().max(200).nullable(),
  external_id: z.string().max(200).nullable().optional(),
  outcome: z.string().max(20_000).nullable().optional(),
  agent: CreateSessionBody.shape.agent.unwrap().nullable().optional(),
  source: z.enum(SESSION_SOURCES).optional(),
});
export const ImportedHandover = z.object({ handover_id: z.string().min(1), session_id: z.string().min(1) });
const Knowledge = CreateKnowledgeBody.omit({ error: true, description: true }).extend({
  language: z.string().max(100).nullable(),
  error: z.string().max(100_000).nullable().optional(),
  description: z.string().max(100_000).nullable().optional(),
});
export const ImportedKnowledge = z.object({ solutions: z.array(Knowledge), snippets: z.array(Knowledge) });
export const ImportedTodo = SyncTodoItem.omit({ id: true, expected_version: true }).extend({ project: z.string().max(200) });
export const ImportedWorkLog = WorktimeBody.extend({ project: z.string().trim().max(200).nullable(), description: z.string().max(10_000).nullable() });
export const ImportedSpark = CreateSparkBody;
export const ImportedWebhook = CreateWebhookBody.extend({ name: z.string().trim().max(200).nullable().optional(), status: z.enum(['enabled', 'disabled']) });
export const ImportedManifest = z.object({
  format: z.literal(EXPORT_FORMAT),
  format_version: z.literal(EXPORT_FORMAT_VERSION),
  account: z.object({ plan: z.enum(['free', 'pro', 'business']) }),
});
