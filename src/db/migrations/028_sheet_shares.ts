import type { Kysely } from 'kysely';

/**
 * Read-only share links of a sheet (issue 33): a long random token, stored as its sha256 only, with an
 * optional expiry. Revoking deletes the row, so a revoked link is as unknown as one never made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sheet_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sheet_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('sheet_shares_sheet').on('sheet_shares').columns(['sheet_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
