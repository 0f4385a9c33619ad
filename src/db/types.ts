import type { Kysely, Transaction } from 'kysely';

/** Row shapes as stored. Timestamps are ISO 8601 UTC text; JSON columns are text. Same on both dialects. */
export interface UsersTable {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'business';
  created_at: string;
}

export interface OAuthClientsTable {
  id: string;
  kind: 'registered' | 'metadata';
  client_name: string;
  /** JSON array. */
  redirect_uris: string;
  created_at: string;
  fetched_at: string | null;
  last_used_at: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  client_name: string;
  scopes: string;
  resource: string;
  status: 'active' | 'revoked';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The API key that approved the grant; the grant ends with it. Null for grants older than migration 016. */
  approved_by_key: string | null;
  /** The one workspace the grant's tokens reach (migration 030), picked on the consent page; null: every workspace. */
  workspace_id: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  resource: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  grant_id: string | null;
  approved_by_key: string | null;
  /** The workspace picked on the consent page, for the grant (migration 030). */
  workspace_id: string | null;
}

export interface OAuthTokensTable {
  token_hash: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  status: 'active' | 'disabled';
  created_at: string;
  last_used_at: string | null;
  disabled_at: string | null;
  /** JSON array of scopes; ["*"] is full access. */
  scopes: string;
  expires_at: string | null;
  /** The OAuth grant this key was made under (migration 025): the key ends with it. */
  issued_by_grant: string | null;
  /** The one workspace this key reaches (migration 030); null: every workspace of the account. */
  workspace_id: string | null;
}

export interface SheetsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  title: string;
  content: string;
  folder: string | null;
  tags: string;
  search_text: string;
  created_at: string;
  updated_at: string;
  trashed_at: string | null;
  /** 1 at creation, +1 on every change (migration 011). */
  version: number;
  /** JSON: the changes and the actor of the write that made this version (null for older rows). */
  last_changes: string | null;
  last_actor: string | null;
}

/** An account's sheets in one state (trashed 0 or 1), kept by triggers (migration 021); on PostgreSQL spread over a few rows (shards) that sum to the count. */
export interface SheetCountsTable {
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  trashed: number;
  shard: number;
  n: string | number;
}

/** The state a sheet write replaced; content is the deflated content JSON. */
export interface SheetRevisionsTable {
  sheet_id: string;
  version: number;
  title: string;
  content: Buffer;
  folder: string | null;
  tags: string;
  changes: string | null;
  actor: string | null;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  title: string;
  summary: string;
  project: string | null;
  tags: string;
  files_changed: string;
  search_text: string;
  created_at: string;
  /** The client's own reference for upserts (migration 023), unique per account; null when saved without one. */
  external_id: string | null;
  /** Null until the session is first changed after creation. */
  updated_at: string | null;
  /** Migration 037: what the session came to (its closing message); null when not known. */
  outcome: string | null;
  /** JSON string arrays: tasks completed, and still open, in this session. */
  tasks_done: string;
  tasks_open: string;
  /** JSON [{command, error}]: the commands that failed, with their first error line. */
  errors: string;
  /** JSON string array: the prompts, shortened. */
  prompts: string;
  /** The assistant that ran the session (claude-code, codex, gemini-cli, ...); null when not said. */
  agent: string | null;
  /** Who wrote title and summary: a person or the model ('curated'), or a client's capture ('capture'). */
  source: 'curated' | 'capture';
  /** The account that wrote the session (author_id before migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
}

export interface KnowledgeTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  type: 'solution' | 'snippet';
  title: string;
  error: string | null;
  content: string;
  language: string | null;
  description: string | null;
  tags: string;
  search_text: string;
  created_at: string;
  updated_at: string;
  /** 1 at creation, +1 on every change. */
  version: number;
}

export interface TodosTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  project: string;
  priority: 'low' | 'medium' | 'high';
  active_form: string | null;
  created_at: string;
  updated_at: string;
  /** 1 at creation, +1 on every change. */
  version: number;
  /** Trimmed content, held by the one task a sync matches by content (unique per user and project); null on duplicates. */
  content_key: string | null;
  /** Migration 037: the session (an id, or a client's reference such as cc:<id>) that last changed it; null when not said. */
  session_ref: string | null;
  /** Migration 037: the account that last changed it; null for team todos before migration 037. */
  changed_by: string | null;
}

/** A claimed Idempotency-Key (src/http/idempotency.ts): status and response stay null while the first request runs. */
export interface IdempotencyKeysTable {
  user_id: string;
  /** The credential that sent the key (AuthContext.keyId: API key or OAuth grant); only it gets the replay. */
  credential_id: string;
  key: string;
  /** Hash of method, path and body: a reuse with another request is refused. */
  fingerprint: string;
  status: number | null;
  response: string | null;
  created_at: string;
  expires_at: string;
}

export interface WorkLogsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  project: string | null;
  hours: number;
  description: string | null;
  date: string;
  created_at: string;
}

export interface SparkRunsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  spark_id: string;
  spark_name: string;
  sheet_id: string | null;
  created_at: string;
}

/** Links a handover sheet to its session and project (migration 006). */
export interface HandoversTable {
  handover_id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  session_id: string;
  project: string | null;
  created_at: string;
  /** The account that made the handover (author_id before migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
}

/** A user's own spark (type user); public sparks live in src/modules/sparks/catalogue.ts. */
export interface UserSparksTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  name: string;
  description: string;
  icon: string;
  category: string;
  /** Template with {{content}} where the text goes. */
  prompt: string;
  created_at: string;
  updated_at: string;
}

export interface OutboxTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  event: string;
  data: string;
  created_at: string;
  /** Set when the webhook worker has turned this event into deliveries. */
  dispatched_at: string | null;
}

export interface ExportsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  sheet_id: string;
  format: 'markdown' | 'html' | 'txt' | 'json';
  token_hash: string;
  filename: string;
  content_type: string;
  body: string;
  created_at: string;
  expires_at: string;
}

export interface ConsoleSessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  key_id: string;
  created_at: string;
  expires_at: string;
}

export interface WebhooksTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  url: string;
  /** JSON array of event names, or ["*"]. */
  events: string;
  name: string | null;
  /** The whsec_ secret, AES-256-GCM encrypted with the server key (src/webhook-delivery/secrets.ts). */
  secret_enc: string;
  status: 'enabled' | 'disabled';
  created_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** The account that made it (created_by before migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
}

export interface DeliveriesTable {
  id: string;
  webhook_id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  event_id: string;
  event: string;
  /** The exact bytes sent (and signed) on every attempt. */
  body: string;
  status: 'pending' | 'delivered' | 'failed' | 'stopped';
  attempt_count: number;
  /** Failures since the delivery was (re)queued: the position in the retry schedule. */
  retry_step: number;
  next_attempt_at: string | null;
  /** Lease: while in the future, one worker owns the row. */
  claimed_until: string | null;
  claimed_by: string | null;
  stopped_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

/** A workspace (issue 33): every account's personal one, and team workspaces with members. */
export interface WorkspacesTable {
  id: string;
  name: string;
  /** 1: the account's personal workspace (id 'wsp_' + the account id without 'usr_'). */
  personal: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export type WorkspaceRole = 'owner' | 'admin' | 'editor' | 'viewer';

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: WorkspaceRole;
  created_at: string;
}

export interface WorkspaceInvitationsTable {
  id: string;
  workspace_id: string;
  role: Exclude<WorkspaceRole, 'owner'>;
  /** sha256 hex of the token; the token itself is shown once, when the invitation is made. */
  token_hash: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_at: string | null;
}

/** A read-only share link of a sheet; the token itself is shown once, when the link is made. */
export interface SheetSharesTable {
  id: string;
  sheet_id: string;
  created_by: string;
  token_hash: string;
  created_at: string;
  /** null: until revoked. */
  expires_at: string | null;
}

/** One row (id 1): moved by every change an authentication could see (migrations 019 and 031). */
export interface AuthGenerationTable {
  id: number;
  n: number;
}

/** Migration 039: a session's distillation (src/modules/distill): the durable queue row and the result. */
export interface SessionDistillsTable {
  session_id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  state: 'pending' | 'done' | 'failed' | 'capped';
  due_at: string | null;
  attempts: number;
  claim: string | null;
  input_hash: string | null;
  summary: string | null;
  /** JSON string arrays. */
  decisions: string;
  learnings: string;
  model: string | null;
  distilled_at: string | null;
  note: string | null;
  updated_at: string;
}

/** Migration 039: one provider call of a distillation, with its tokens. */
export interface DistillRunsTable {
  id: string;
  session_id: string;
  account_id: string;
  /** UTC day (YYYY-MM-DD) the daily cap sums by. */
  day: string;
  model: string;
  tokens_in: number;
  tokens_out: number;
  outcome: 'ok' | 'failed' | 'bad_answer';
  created_at: string;
}

/** Migration 039: a suggested knowledge entry (error -> fix) waiting for review. */
export interface KnowledgeSuggestionsTable {
  id: string;
  /** The workspace the record is in (migration 042; a personal workspace is wsp_ + the account id without usr_). */
  workspace_id: string;
  /** The account that created it (migration 042; for rows older than that, the workspace's creator when not recorded). */
  user_id: string;
  session_id: string;
  title: string;
  error: string;
  fix: string;
  status: 'pending' | 'accepting' | 'accepted' | 'dismissed';
  knowledge_id: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export interface Database {
  auth_generation: AuthGenerationTable;
  users: UsersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  sheet_shares: SheetSharesTable;
  api_keys: ApiKeysTable;
  sheets: SheetsTable;
  sheet_counts: SheetCountsTable;
  sheet_revisions: SheetRevisionsTable;
  sessions: SessionsTable;
  handovers: HandoversTable;
  knowledge: KnowledgeTable;
  todos: TodosTable;
  idempotency_keys: IdempotencyKeysTable;
  work_logs: WorkLogsTable;
  spark_runs: SparkRunsTable;
  user_sparks: UserSparksTable;
  outbox: OutboxTable;
  webhooks: WebhooksTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  exports: ExportsTable;
  console_sessions: ConsoleSessionsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  session_distills: SessionDistillsTable;
  distill_runs: DistillRunsTable;
  knowledge_suggestions: KnowledgeSuggestionsTable;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Repos accept either the root handle or a transaction. */
export type Executor = Db | Trx;
export type Dialect = 'sqlite' | 'postgres';

/** A workspace's rows in one state (live or trashed). */
export interface Owner {
  workspaceId: string;
  trashed: boolean;
}
