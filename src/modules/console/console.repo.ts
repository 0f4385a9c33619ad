import type { ConsoleSessionsTable, Db } from '../../db/types.js';

export function createConsoleSessionsRepo(db: Db) {
  return {
    async insert(row: ConsoleSessionsTable) {
      await db.insertInto('console_sessions').values(row).execute();
    },
    /** The session with its key's status and the account's plan: one lookup per request. */
    findByTokenHash(hash: string) {
      return db
        .selectFrom('console_sessions')
        .innerJoin('api_keys', 'api_keys.id', 'console_sessions.key_id')
        .innerJoin('users', 'users.id', 'console_sessions.user_id')
        .select([
          'console_sessions.id',
          'console_sessions.user_id',
          'console_sessions.key_id',
          'console_sessions.expires_at',
          'api_keys.status as key_status',
          'api_keys.expires_at as key_expires_at',
          'api_keys.name as key_name',
          'api_keys.workspace_id',
          'users.plan',
          'users.name',
        ])
        .where('console_sessions.token_hash', '=', hash)
        .executeTakeFirst();
    },
    async deleteByTokenHash(hash: string) {
      await db.deleteFrom('console_sessions').where('token_hash', '=', hash).execute();
    },
    async deleteExpired(now: string) {
      const r = await db.deleteFrom('console_sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type ConsoleSessionsRepo = ReturnType<typeof createConsoleSessionsRepo>;
