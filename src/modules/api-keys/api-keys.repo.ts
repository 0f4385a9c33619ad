import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { compiledOnce } from '../../db/sqlite/statement-cache.js';
import type { ApiKeysTable, Db, Executor } from '../../db/types.js';

/**
 * Run on every authenticated request, so compiled once (the lookup itself still reads the database
 * each time). The key's name comes along (same row, no extra read): writes name it as their actor.
 * A key's workspace (migration 030) restricts what it reaches. A key made under an OAuth grant
 * (migration 025) brings the grant's status and its approving key's
 * state (primary-key joins; null columns for other keys), so it ends with the grant.
 */
const byHash = compiledOnce((db: Db, hash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .leftJoin('oauth_grants', 'oauth_grants.id', 'api_keys.issued_by_grant')
    .leftJoin('api_keys as approver', 'approver.id', 'oauth_grants.approved_by_key')
    .select(['api_keys.id', 'api_keys.name', 'api_keys.user_id', 'api_keys.status', 'api_keys.last_used_at', 'api_keys.scopes', 'api_keys.expires_at', 'api_keys.workspace_id', 'users.plan'])
    .select(['api_keys.issued_by_grant', 'oauth_grants.status as grant_status', 'oauth_grants.approved_by_key'])
    .select(['approver.id as key_id', 'approver.status as key_status', 'approver.expires_at as key_expires_at'])
    .where('api_keys.key_hash', '=', hash),
);

/**
 * The counter migrations 019 (SQLite) and 031 (PostgreSQL) move on every change an authentication could
 * see. PostgreSQL's is a bigint, which node-postgres gives as a string; as a double it stays exact to 2^53.
 */
const authGenerationRow = compiledOnce((db: Db) =>
  db
    .selectFrom('auth_generation')
    .select(dialectOf(db) === 'postgres' ? sql<number>`n::float8`.as('n') : 'n')
    .where('id', '=', 1),
);

export function createApiKeysRepo(db: Executor) {
  return {
    /** The auth generation (authGenerationRow); undefined if the row is missing. */
    async authGeneration(): Promise<number | undefined> {
      return (await authGenerationRow(db))[0]?.n;
    },
    async insert(row: ApiKeysTable, exec: Executor = db) {
      await exec.insertInto('api_keys').values(row).execute();
    },
    /** The key and its owner's plan in one indexed lookup. */
    async findByHash(hash: string) {
      return (await byHash(db, hash))[0];
    },
    findById(id: string) {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },
    listByUser(userId: string) {
      return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
    },
    async disable(id: string, at: string) {
      await db.updateTable('api_keys').set({ status: 'disabled', disabled_at: at }).where('id', '=', id).execute();
    },
    /** Conditional, so concurrent requests write at most once a minute per key. */
    async touch(id: string, now: string, staleBefore: string) {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute();
    },
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
