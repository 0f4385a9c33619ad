import type { Kysely } from 'kysely';

/** Exports by sheet: listing a sheet's exports and removing them with the sheet (permanent delete, purge). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('exports_sheet').on('exports').columns(['sheet_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('exports_sheet').ifExists().execute();
}
