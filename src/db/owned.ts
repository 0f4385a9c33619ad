import { forbidden, notFound } from '../errors.js';

/**
 * The row when it belongs to `ownerId` (in `column`: an account's `user_id` for account-level rows such
 * as API keys and connected apps; a record's `workspace_id` for a sheet re-read under its write lock):
 * 404 when there is none, 403 when it is someone else's, the same two answers everywhere. Who may reach a
 * record in a workspace is decided before that by the workspace access (access.ownedRow,
 * src/modules/workspaces/workspaces.access.ts).
 */
export function rowOwnedBy<C extends 'user_id' | 'workspace_id', R extends Record<C, string>>(row: R | undefined, column: C, ownerId: string, what: string, id: string): R {
  if (!row) throw notFound(what, id);
  if (row[column] !== ownerId) throw forbidden(what, id);
  return row;
}
