import type { Db, IdempotencyKeysTable } from '../../db/types.js';

/** Rows of claimed keys. Every statement stands alone (autocommit), so a claim is visible to every process at once. */
export function createIdempotencyRepo(db: Db) {
  const one = (userId: string, key: string) => db.selectFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key);
  return {
    /** INSERT ... ON CONFLICT DO NOTHING: the primary key (user_id, key) decides which request runs. True when this one won. */
    async claim(row: IdempotencyKeysTable): Promise<boolean> {
      const won = await db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return won !== undefined;
    },
    find(userId: string, key: string) {
      return one(userId, key).selectAll().executeTakeFirst();
    },
    /** Only the claim made at `createdAt`, so a late finisher cannot touch a newer claim of the same key. */
    async complete(userId: string, key: string, createdAt: string, status: number, response: string) {
      await db.updateTable('idempotency_keys').set({ status, response }).where('user_id', '=', userId).where('key', '=', key).where('created_at', '=', createdAt).execute();
    },
    async release(userId: string, key: string, createdAt: string) {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('created_at', '=', createdAt).execute();
    },
    async purgeExpired(now: string): Promise<number> {
      const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
