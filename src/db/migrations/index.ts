import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_core.js';
import * as m002 from './002_webhooks.js';
import * as m003 from './003_sparks.js';
import * as m004 from './004_exports.js';
import * as m006 from './006_handovers.js';
import * as m008 from './008_search_index.js';
import * as m009 from './009_delivery_indexes.js';
import * as m010 from './010_sheet_live_index.js';
import * as m011 from './011_sheet_versions.js';
import * as m012 from './012_knowledge_todo_versions_idempotency.js';
import * as m013 from './013_export_sheet_index.js';
import * as m014 from './014_scopes_oauth.js';
import * as m015 from './015_outbox_account_index.js';
import * as m016 from './016_grant_approving_key.js';
import * as m017 from './017_sheet_trash_index.js';
import * as m018 from './018_search_index_queue.js';
import * as m019 from './019_auth_generation.js';
import * as m020 from './020_sheet_text_lz4.js';
import * as m021 from './021_sheet_counts.js';
import * as m022 from './022_sheet_tokens.js';
import * as m023 from './023_session_external_id.js';
import * as m024 from './024_idempotency_by_credential.js';
import * as m025 from './025_key_issuing_grant.js';
import * as m026 from './026_tokenizer_cjk_triples.js';
import * as m027 from './027_workspaces.js';
import * as m028 from './028_sheet_shares.js';
import * as m029 from './029_token_cap_vocab_prune.js';
import * as m030 from './030_workspace_keys.js';
import * as m031 from './031_pg_auth_generation.js';
import * as m032 from './032_deferred_sheet_tokens.js';
import * as m033 from './033_search_index_file.js';
import * as m034 from './034_outbox_unwatched_dispatched.js';
import * as m035 from './035_outbox_undispatched_index.js';
import * as m036 from './036_webhook_maker.js';
import * as m037 from './037_session_records.js';
import * as m038 from './038_unified_search.js';
import * as m039 from './039_session_distill.js';
import * as m040 from './040_search_vectors.js';
import * as m041 from './041_search_scope_column.js';
import * as m042 from './042_record_workspaces.js';
import * as m043 from './043_sqlite_search_index_file.js';

/** Add each new migration here; names sort in the order they run. */
const migrations: Record<string, Migration> = {
  '001_core': m001,
  '002_webhooks': m002,
  '003_sparks': m003,
  '004_exports': m004,
  '006_handovers': m006,
  '008_search_index': m008,
  '009_delivery_indexes': m009,
  '010_sheet_live_index': m010,
  '011_sheet_versions': m011,
  '012_knowledge_todo_versions_idempotency': m012,
  '013_export_sheet_index': m013,
  '014_scopes_oauth': m014,
  '015_outbox_account_index': m015,
  '016_grant_approving_key': m016,
  '017_sheet_trash_index': m017,
  '018_search_index_queue': m018,
  '019_auth_generation': m019,
  '020_sheet_text_lz4': m020,
  '021_sheet_counts': m021,
  '022_sheet_tokens': m022,
  '023_session_external_id': m023,
  '024_idempotency_by_credential': m024,
  '025_key_issuing_grant': m025,
  '026_tokenizer_cjk_triples': m026,
  '027_workspaces': m027,
  '028_sheet_shares': m028,
  '029_token_cap_vocab_prune': m029,
  '030_workspace_keys': m030,
  '031_pg_auth_generation': m031,
  '032_deferred_sheet_tokens': m032,
  '033_search_index_file': m033,
  '034_outbox_unwatched_dispatched': m034,
  '035_outbox_undispatched_index': m035,
  '036_webhook_maker': m036,
  '037_session_records': m037,
  '038_unified_search': m038,
  '039_session_distill': m039,
  '040_search_vectors': m040,
  '041_search_scope_column': m041,
  '042_record_workspaces': m042,
  '043_sqlite_search_index_file': m043,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
