/**
 * The event catalog: one zod schema per event, with exactly the data fields of
 * the spec's Events table.
 *
 * How an event reaches a webhook: a service calls `outbox.emit(trx, ...)`
 * inside the transaction of the change, so the outbox row commits (or rolls
 * back) with it. After commit the outbox wakes the delivery worker
 * (src/webhook-delivery/), which turns the row into one delivery per subscribed,
 * enabled webhook of the event's owner and sends it.
 */
import { z } from 'zod';

const ts = z.string();

export const EVENT_SCHEMAS = {
  'sheet.created': z.strictObject({ sheet_id: z.string(), name: z.string(), created_at: ts }),
  'sheet.updated': z.strictObject({
    sheet_id: z.string(),
    changes: z.array(z.enum(['title', 'content', 'folder', 'tags', 'restored'])).describe("The fields the write changed; ['restored'] when the sheet came back from the trash."),
    columns: z.array(z.string()).describe('The column keys whose HTML changed (added, edited or removed); empty when content did not change.'),
    version: z.number().int().describe('The version this write made.'),
    updated_at: ts,
  }),
  'sheet.deleted': z.strictObject({ sheet_id: z.string(), deleted_at: ts }),
  'spark.executed': z.strictObject({
    spark_id: z.string(),
    spark_name: z.string(),
    sheet_id: z.string().nullable(),
    executed_at: ts,
  }),
  'session.saved': z.strictObject({ session_id: z.string(), title: z.string() }),
  'session.handover': z.strictObject({ session_id: z.string(), handover_id: z.string() }),
  // Extension beyond the spec: a saved session changed (PUT /sessions/external/{external_id}, PATCH /sessions/{id}).
  'session.updated': z.strictObject({
    session_id: z.string(),
    title: z.string().describe('The title after the change.'),
    changes: z.array(z.enum(['title', 'summary', 'project', 'tags', 'files_changed', 'outcome', 'tasks_done', 'tasks_open', 'errors', 'prompts', 'agent', 'source'])).describe('The fields the write changed.'),
    updated_at: ts,
  }),
  'knowledge.saved': z.strictObject({ type: z.enum(['solution', 'snippet']), id: z.string(), title: z.string() }),
  'export.completed': z.strictObject({ sheet_id: z.string(), format: z.string(), url: z.string() }),
  // Extensions beyond the spec's Events table, so the console's todo board updates live.
  'todos.synced': z.strictObject({
    project: z.string().describe('The project of the sync; empty string for no project.'),
    created: z.number().int(),
    updated: z.number().int(),
    todo_ids: z.array(z.string()).describe('The tasks this sync created or changed.'),
  }),
  'todo.deleted': z.strictObject({ todo_id: z.string(), project: z.string(), deleted_at: ts }),
} as const;

export type EventName = keyof typeof EVENT_SCHEMAS;
/** What a service passes to `outbox.emit`: the event's own fields. */
export type EventData<E extends EventName> = z.infer<(typeof EVENT_SCHEMAS)[E]>;

/**
 * Fields every event's data carries besides its own, added by `outbox.emit` alone (so no service can
 * forget them): the workspace the record is in and the member who acted.
 */
export const EVENT_CONTEXT = z.strictObject({
  workspace_id: z.string().describe('The workspace (wsp_...) the event happened in; its webhooks and event streams receive it.'),
  actor_id: z.string().nullable().describe("The account (usr_...) of the member who acted; null only when a team workspace's event was written without naming one."),
});
export type EventContext = z.infer<typeof EVENT_CONTEXT>;
/** An event's data as stored, delivered and streamed. */
export type EventPayload<E extends EventName> = EventData<E> & EventContext;

export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_SCHEMAS, name);
}
