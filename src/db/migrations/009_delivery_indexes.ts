import type { Kysely } from 'kysely';

/**
 * Lets the delivery worker claim per webhook without scanning other webhooks' backlogs:
 * (status, webhook_id, next_attempt_at) serves both the skip-scan that lists the webhooks with
 * pending deliveries (min(webhook_id) > ?) and "the due deliveries of this webhook, oldest first".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('deliveries_webhook_due').on('deliveries').columns(['status', 'webhook_id', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_webhook_due').execute();
}
