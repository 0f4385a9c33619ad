import { forbidden, notFound } from '../errors.js';

/**
 * The row when `ownerKey` (an account id, or a record's owner key) owns it: 404 when there is none, 403 when it
 * is someone else's, the same two answers everywhere. Account-level rows (API keys, connected apps) and a
 * sheet re-read under its write lock are checked here; who may reach a record in a workspace is decided
 * before that by the workspace access (access.ownedRow, src/modules/workspaces/workspaces.access.ts).
 */
export function rowOwnedBy<R extends { user_id: string }>(row: R | undefined, ownerKey: string, what: string, id: string): R {
  if (!row) throw notFound(what, id);
  if (row.user_id !== ownerKey) throw forbidden(what, id);
  return row;
}
