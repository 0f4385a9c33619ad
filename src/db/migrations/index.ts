import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_core.js';

/** Add each new migration here; names sort in the order they run. */
const migrations: Record<string, Migration> = {
  '001_core': m001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
