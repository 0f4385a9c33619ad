import type { Db, DeliveriesTable, Executor, WebhooksTable } from '../../db/types.js';

export function createWebhooksRepo(db: Db) {
  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    listInWorkspace(workspaceId: string) {
      return db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id', 'desc').execute();
    },
    async insert(row: WebhooksTable) {
      await db.insertInto('webhooks').values(row).execute();
    },
    async update(id: string, patch: Partial<WebhooksTable>, exec: Executor = db) {
      await exec.updateTable('webhooks').set(patch).where('id', '=', id).execute();
    },
    /**
     * Disables the enabled webhooks `userId` made in workspace `workspaceId` (a member
     * who left or lost the admin role); their pending deliveries stop when next claimed. The count disabled.
     */
    async disableMadeBy(workspaceId: string, userId: string, reason: string, at: string, exec: Executor = db): Promise<number> {
      const r = await exec
        .updateTable('webhooks')
        .set({ status: 'disabled', disabled_at: at, disabled_reason: reason })
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .where('status', '=', 'enabled')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** The webhook with its delivery log. */
    async remove(id: string, exec: Executor) {
      const ids = exec.selectFrom('deliveries').select('id').where('webhook_id', '=', id);
      await exec.deleteFrom('delivery_attempts').where('delivery_id', 'in', ids).execute();
      await exec.deleteFrom('deliveries').where('webhook_id', '=', id).execute();
      await exec.deleteFrom('webhooks').where('id', '=', id).execute();
    },
    findDelivery(id: string, exec: Executor = db) {
      return exec.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async updateDelivery(id: string, patch: Partial<DeliveriesTable>, exec: Executor = db) {
      await exec.updateTable('deliveries').set(patch).where('id', '=', id).execute();
    },
    async listDeliveries(webhookId: string, limit: number, offset: number) {
      const [rows, count] = await Promise.all([
        db.selectFrom('deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        db
          .selectFrom('deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_id', '=', webhookId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    attemptsFor(deliveryIds: string[]) {
      if (deliveryIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempted_at').orderBy('id').execute();
    },
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
