import { sql, type Kysely } from 'kysely';

/**
 * Optional LLM distillation of sessions (issue 54 point 7, src/modules/distill), off unless DISTILL=1
 * and an AI provider is configured.
 *
 * - session_distills: one row per session that was queued. It is the durable queue (state 'pending'
 *   with due_at: written in the same transaction as the session change that queued it, so a restart
 *   loses nothing; a capture within the debounce moves due_at, so a session distils once after it
 *   settles) and the result: the condensed summary, decisions and learnings (JSON string arrays), when
 *   and by which model, and `note`, the visible reason a run did not happen (cap reached, provider
 *   failure). `claim` is the token of the worker running it; a worker that dies leaves due_at at its
 *   lease's end, when the row is taken again.
 * - distill_runs: every provider call, with its tokens in and out and the model, charged to an account
 *   (the session's author, else its owner); the per-account daily cap sums them by UTC day.
 * - knowledge_suggestions: the error -> fix entries a run proposed, waiting in a review queue until a
 *   member accepts (a solution is created; knowledge_id names it) or dismisses them.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table session_distills (
    session_id text primary key,
    user_id text not null,
    state text not null,
    due_at text,
    attempts integer not null default 0,
    claim text,
    input_hash text,
    summary text,
    decisions text not null default '[]',
    learnings text not null default '[]',
    model text,
    distilled_at text,
    note text,
    updated_at text not null)`.execute(db);
  await sql`create index session_distills_due on session_distills (due_at) where due_at is not null`.execute(db);
  await sql`create table distill_runs (
    id text primary key,
    session_id text not null,
    account_id text not null,
    day text not null,
    model text not null,
    tokens_in integer not null,
    tokens_out integer not null,
    outcome text not null,
    created_at text not null)`.execute(db);
  await sql`create index distill_runs_account_day on distill_runs (account_id, day)`.execute(db);
  await sql`create table knowledge_suggestions (
    id text primary key,
    user_id text not null,
    session_id text not null,
    title text not null,
    error text not null,
    fix text not null,
    status text not null default 'pending',
    knowledge_id text,
    created_at text not null,
    decided_at text,
    decided_by text)`.execute(db);
  await sql`create index knowledge_suggestions_owner on knowledge_suggestions (user_id, status, id)`.execute(db);
  await sql`create index knowledge_suggestions_session on knowledge_suggestions (session_id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
