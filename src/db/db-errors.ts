import { AppError } from '../errors.js';

/**
 * The one place that says what a database error means for the client (docs/operations.md, "When the
 * database goes away"):
 * - the connection was lost or cannot be made (PostgreSQL restarting, failing over, a backend
 *   terminated, the server unreachable): 503 `unavailable` with Retry-After. Only the requests that
 *   used that connection fail; the pool replaces it.
 * - the disk is full (SQLITE_FULL, ENOSPC, PostgreSQL's 53100 disk_full or "could not extend file"):
 *   507 `insufficient_storage`, naming the database's own words. The transaction was rolled back whole.
 * Anything else is not the database going away: undefined (the caller answers 500 as before).
 */

/** Seconds a client is told to wait after a lost connection: a PostgreSQL restart takes a few. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

/** SQLSTATE classes and codes of a lost or refused connection. */
const LOST_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
/** Socket errors of a lost or refused connection. */
const LOST_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres says these in words, without a code. */
const LOST_MESSAGE = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;
const FULL_MESSAGE = /could not extend file|No space left on device|database or disk is full/i;

export type DatabaseTrouble = 'lost' | 'full';

/**
 * What kind of database trouble `err` is (looking into an AggregateError's errors: a connection to a
 * host name with several addresses); undefined for any other error. Not into `cause`: fetch's "fetch
 * failed" carries a socket error there, which is not the database's.
 */
export function databaseTrouble(err: unknown, depth = 0): DatabaseTrouble | undefined {
  if (!err || typeof err !== 'object' || depth > 2 || err instanceof AppError) return undefined;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100' || FULL_MESSAGE.test(message)) return 'full';
  if (LOST_SQLSTATE.test(code) || LOST_ERRNO.has(code) || LOST_MESSAGE.test(message)) return 'lost';
  for (const inner of Array.isArray(e.errors) ? e.errors : []) {
    const found = databaseTrouble(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The error a client gets for `err` when it is database trouble (see above); undefined otherwise. */
export function databaseTroubleError(err: unknown): AppError | undefined {
  const trouble = databaseTrouble(err);
  if (trouble === 'lost') {
    return new AppError('unavailable', `The database is unavailable (connection lost: ${describe(err)}); retry in a few seconds`, {
      'retry-after': String(UNAVAILABLE_RETRY_AFTER_S),
    });
  }
  if (trouble === 'full') {
    const cause = describe(err);
    noteDiskFull(cause);
    return new AppError('insufficient_storage', `The database's disk is full (${cause}); nothing of this write was saved. Writes resume once space is freed`);
  }
  return undefined;
}

/** The database's own words, short: the message, with the SQLSTATE or code when there is one. */
function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = String(e.message ?? err)
    .split('\n')[0]
    .slice(0, 200);
  return typeof e.code === 'string' && e.code && !message.includes(e.code) ? `${message} [${e.code}]` : message;
}

/**
 * The last disk-full failure of this process, which /readyz reports until space is back
 * (src/http/health.ts). One per process: a process has one database.
 */
let diskFull: { cause: string; at: number } | undefined;

export function noteDiskFull(cause: string, now = Date.now()): void {
  diskFull = { cause, at: now };
}

export const lastDiskFull = (): { cause: string; at: number } | undefined => diskFull;

export function clearDiskFull(): void {
  diskFull = undefined;
}
