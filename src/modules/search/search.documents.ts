import { sql, type Kysely } from 'kysely';
import { MAX_FIELD_TERMS, type SearchDoc, type SearchKind } from './search.engine.js';
import { indexTerms } from './search.tokenize.js';

/**
 * What the index and the snippets read of each kind of record: the rows by id, and the fields they
 * give (title, errors, meta, body). Sessions are read whole (select *): columns added to them later
 * (errors, outcome, tasks: migration 037) are indexed when present.
 */

/** The queue's kinds: knowledge rows are solutions or snippets, told apart by their type column. */
export type QueueKind = 'sheet' | 'session' | 'knowledge' | 'todo';
export const QUEUE_KINDS_OF: Record<QueueKind, readonly SearchKind[]> = {
  sheet: ['sheet'],
  session: ['session'],
  knowledge: ['solution', 'snippet'],
  todo: ['todo'],
};
export const queueKindOf = (kind: SearchKind): QueueKind => (kind === 'solution' || kind === 'snippet' ? 'knowledge' : kind);

/** A record's text by field, as the index and the snippets see it. */
export interface RecordText {
  kind: SearchKind;
  id: string;
  /** The record's workspace (the index's owner_key column). */
  owner_key: string;
  project: string | null;
  title: string;
  updated_at: string;
  err: string;
  meta: string;
  body: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of four tables (some `select *`), each column read by name where it is used
type Row = Record<string, any>;
const list = (json: unknown): string[] => {
  if (typeof json !== 'string') return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : [];
  } catch {
    return [];
  }
};
const lines = (...parts: (string | null | undefined)[]) => parts.filter((p) => p).join('\n');
/** Lines of a text that read like an error: an error name or code, a failure, a stack frame. */
const ERROR_LINE = /(error|exception|failed|failure|fatal|panic|traceback|denied|refused|timed? ?out|\bE[A-Z]{3,}\b|\b[A-Z]+_[A-Z_]+\b|\bat .+:\d+|エラー|失敗)/i;
const errorLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => ERROR_LINE.test(l))
    .join('\n');

function sheetText(r: Row, project: string | null): RecordText {
  return {
    kind: 'sheet',
    id: r.id,
    owner_key: r.workspace_id,
    project,
    title: r.title,
    updated_at: r.updated_at,
    err: '',
    meta: lines(list(r.tags).join(' '), r.folder, project),
    body: String(r.search_text ?? '').slice(r.title.length),
  };
}

function sessionText(r: Row): RecordText {
  const failed = list(r.errors).map((e) => {
    try {
      const v = JSON.parse(e) as { command?: string; error?: string };
      return lines(v.command, v.error);
    } catch {
      return e;
    }
  });
  const body = lines(r.summary, r.outcome, ...list(r.tasks_done), ...list(r.tasks_open));
  return {
    kind: 'session',
    id: r.id,
    owner_key: r.workspace_id,
    project: r.project ?? null,
    title: r.title,
    updated_at: r.updated_at ?? r.created_at,
    err: lines(...failed, errorLines(String(r.summary ?? ''))),
    meta: lines(r.project, list(r.tags).join(' '), list(r.files_changed).join(' ')),
    body,
  };
}

function knowledgeText(r: Row): RecordText {
  return {
    kind: r.type === 'snippet' ? 'snippet' : 'solution',
    id: r.id,
    owner_key: r.workspace_id,
    project: null,
    title: r.title,
    updated_at: r.updated_at,
    err: r.error ?? '',
    meta: lines(list(r.tags).join(' '), r.language),
    body: lines(r.description, r.content),
  };
}

function todoText(r: Row): RecordText {
  return {
    kind: 'todo',
    id: r.id,
    owner_key: r.workspace_id,
    project: r.project || null,
    title: r.content,
    updated_at: r.updated_at,
    err: '',
    meta: lines(r.project, r.status, r.priority),
    body: r.active_form ?? '',
  };
}

/** The current text of these records of one queue kind; records gone (or trashed sheets) are absent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function readRecords(db: Kysely<any>, kind: QueueKind, ids: string[]): Promise<RecordText[]> {
  if (ids.length === 0) return [];
  const inIds = sql.join(ids);
  if (kind === 'sheet') {
    const rows = (await sql<Row>`select id, workspace_id, title, search_text, tags, folder, updated_at from sheets where id in (${inIds}) and trashed_at is null`.execute(db)).rows;
    const projects = new Map((await sql<Row>`select handover_id, project from handovers where handover_id in (${inIds})`.execute(db)).rows.map((h) => [h.handover_id as string, h.project as string | null]));
    return rows.map((r) => sheetText(r, projects.get(r.id) ?? null));
  }
  if (kind === 'session') return (await sql<Row>`select * from sessions where id in (${inIds})`.execute(db)).rows.map(sessionText);
  if (kind === 'knowledge') return (await sql<Row>`select * from knowledge where id in (${inIds})`.execute(db)).rows.map(knowledgeText);
  return (await sql<Row>`select * from todos where id in (${inIds})`.execute(db)).rows.map(todoText);
}

const capped = (text: string) => indexTerms(text).slice(0, MAX_FIELD_TERMS);

export function toDoc(t: RecordText): SearchDoc {
  return {
    kind: t.kind,
    record_id: t.id,
    owner_key: t.owner_key,
    project: t.project,
    title: t.title,
    updated_at: t.updated_at,
    terms: { title: capped(t.title), err: capped(t.err), meta: capped(t.meta), body: capped(t.body) },
  };
}
