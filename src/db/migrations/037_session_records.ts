import { sql, type Kysely } from 'kysely';

/**
 * A session record that says what was done (issue 54), as columns the API filters and shows rather than
 * a text blob: the outcome (the closing message), the tasks completed and still open, the commands that
 * failed ([{command, error}]), the prompts (shortened), and the assistant that ran it (`agent`).
 * `source` says who wrote the title and summary: 'curated' (a person or the model, through the API,
 * MCP or the console) or 'capture' (a client's automatic capture, which never replaces curated text).
 * Sessions captured by the Claude Code plugin so far (external_id cc:...) count as captured.
 *
 * Sessions, handovers and todos name the account that wrote them (`author_id`, `changed_by`: team
 * records store the workspace in user_id), so a team's briefing can attribute each part. Todos
 * remember the session that last changed them (`session_ref`: a session id or a client's reference
 * such as cc:<id>), so the briefing can say where an in-progress task was left.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column outcome text`.execute(db);
  await sql`alter table sessions add column tasks_done text not null default '[]'`.execute(db);
  await sql`alter table sessions add column tasks_open text not null default '[]'`.execute(db);
  await sql`alter table sessions add column errors text not null default '[]'`.execute(db);
  await sql`alter table sessions add column prompts text not null default '[]'`.execute(db);
  await sql`alter table sessions add column agent text`.execute(db);
  await sql`alter table sessions add column source text not null default 'curated'`.execute(db);
  await sql`alter table sessions add column author_id text`.execute(db);
  await sql`update sessions set author_id = user_id where user_id like 'usr_%'`.execute(db);
  await sql`alter table handovers add column author_id text`.execute(db);
  await sql`update handovers set author_id = user_id where user_id like 'usr_%'`.execute(db);
  await sql`create index handovers_session on handovers (session_id, handover_id)`.execute(db);
  await sql`update sessions set source = 'capture', agent = 'claude-code' where external_id like 'cc:%'`.execute(db);
  await sql`create index sessions_user_project on sessions (user_id, project, id)`.execute(db);
  await sql`alter table todos add column session_ref text`.execute(db);
  await sql`alter table todos add column changed_by text`.execute(db);
  await sql`update todos set changed_by = user_id where user_id like 'usr_%'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
