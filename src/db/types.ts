import type { Kysely, Transaction } from 'kysely';

/** Row shapes as stored. Timestamps are ISO 8601 UTC text; JSON columns are text. Same on both dialects. */
export interface UsersTable {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'business';
  created_at: string;
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
}

export interface SheetsTable {
  id: string;
  user_id: string;
  title: string;
  content: string;
  folder: string | null;
  tags: string;
  search_text: string;
  created_at: string;
  updated_at: string;
  trashed_at: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  title: string;
  summary: string;
  project: string | null;
  tags: string;
  files_changed: string;
  search_text: string;
  created_at: string;
}

export interface KnowledgeTable {
  id: string;
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
}

export interface TodosTable {
  id: string;
  user_id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  project: string;
  priority: 'low' | 'medium' | 'high';
  active_form: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkLogsTable {
  id: string;
  user_id: string;
  project: string | null;
  hours: number;
  description: string | null;
  date: string;
  created_at: string;
}

export interface SparkRunsTable {
  id: string;
  user_id: string;
  spark_id: string;
  spark_name: string;
  sheet_id: string | null;
  created_at: string;
}

export interface OutboxTable {
  id: string;
  user_id: string;
  event: string;
  data: string;
  created_at: string;
  /** Set when the webhook worker has turned this event into deliveries. */
  dispatched_at: string | null;
}

export interface ExportsTable {
  id: string;
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

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  sheets: SheetsTable;
  sessions: SessionsTable;
  knowledge: KnowledgeTable;
  todos: TodosTable;
  work_logs: WorkLogsTable;
  spark_runs: SparkRunsTable;
  outbox: OutboxTable;
  exports: ExportsTable;
  console_sessions: ConsoleSessionsTable;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Repos accept either the root handle or a transaction. */
export type Executor = Db | Trx;
export type Dialect = 'sqlite' | 'postgres';
