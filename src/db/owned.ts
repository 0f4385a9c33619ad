import { forbidden, notFound } from '../errors.js';

/**
 * The row when `userId` owns it: 404 when there is none, 403 when it is someone else's. Every
 * service that reads a record by id for its owner checks it here, so the two answers stay the same.
 */
export function ownedRow<R extends { user_id: string }>(row: R | undefined, userId: string, what: string, id: string): R {
  if (!row) throw notFound(what, id);
  if (row.user_id !== userId) throw forbidden(what, id);
  return row;
}
