import type { ExpressionBuilder } from 'kysely';
import type { Database, Db, IdempotencyKeysTable } from '../../db/types.js';

/** Whose key it is: the account and the credential (API key or OAuth grant) that sent it. */
export interface IdempotencyOwner {
  userId: string;
  credentialId: string;
}

/** Rows of claimed keys. Every statement stands alone (autocommit), so a claim is visible to every process at once. */
export function createIdempotencyRepo(db: Db) {
  const mine = (owner: IdempotencyOwner, key: string) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) => eb.and({ user_id: owner.userId, credential_id: owner.credentialId, key });
  return {
    /** INSERT ... ON CONFLICT DO NOTHING: the primary key (user_id, credential_id, key) decides which request runs. True when this one won. */
    async claim(row: IdempotencyKeysTable): Promise<boolean> {
      const won = await db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'credential_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return won !== undefined;
    },
    find(owner: IdempotencyOwner, key: string) {
      return db.selectFrom('idempotency_keys').where(mine(owner, key)).selectAll().executeTakeFirst();
    },
    /** Only the claim made at `createdAt`, so a late finisher cannot touch a newer claim of the same key. */
    async complete(owner: IdempotencyOwner, key: string, createdAt: string, status: number, response: string) {
      await db.updateTable('idempotency_keys').where(mine(owner, key)).set({ status, response }).where('created_at', '=', createdAt).execute();
    },
    async release(owner: IdempotencyOwner, key: string, createdAt: string) {
      await db.deleteFrom('idempotency_keys').where(mine(owner, key)).where('created_at', '=', createdAt).execute();
    },
    async purgeExpired(now: string): Promise<number> {
      const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
