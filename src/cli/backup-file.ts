import { createHash } from 'node:crypto';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';

/**
 * The backup file `backup` writes and `restore` reads (docs/operations.md): one file, mode 0600,
 *
 *   SHEET-WORKSPACE-BACKUP 1\n      the magic line (format version 1)
 *   {...}\n                         a one-line JSON header (BackupHeader)
 *   <the SQLite database image>     header.database.bytes bytes, sha256 header.database.sha256
 *
 * The header carries the server key that encrypts webhook secrets, so the file is as secret as the
 * data directory itself. `head -2 backup.swb` shows what a file holds.
 */
export const MAGIC = 'SHEET-WORKSPACE-BACKUP 1';
export const DB_FILE = 'sheet-workspace.db';
const HEADER_MAX = 64 * 1024;

export interface BackupHeader {
  format: 'sheet-workspace-backup';
  created_at: string;
  /** package.json's version of the code that took the backup. */
  app_version: string;
  /** The last migration the database had run. */
  schema: string | null;
  database: { bytes: number; sha256: string };
  /** 64 hex characters: SECRET_KEY or DATA_DIR/secret.key, whichever the server used; null if it had none yet. */
  secret_key: string | null;
}

/** A backup file refused before anything was changed. */
export class BackupFileError extends Error {}

const isHexKey = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Reads and checks the magic line and header; returns the header and where the image starts. */
export function readHeader(file: string): { header: BackupHeader; offset: number } {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(HEADER_MAX);
  let n: number;
  try {
    n = fs.readSync(fd, buf, 0, HEADER_MAX, 0);
  } finally {
    fs.closeSync(fd);
  }
  const head = buf.subarray(0, n);
  const first = head.indexOf(0x0a);
  if (first < 0 || head.subarray(0, first).toString('latin1') !== MAGIC) {
    throw new BackupFileError(`${file} is not a Sheet Workspace backup (it does not start with "${MAGIC}")`);
  }
  const second = head.indexOf(0x0a, first + 1);
  if (second < 0) throw new BackupFileError(`${file} is damaged: its header is cut off`);
  let header: BackupHeader;
  try {
    header = JSON.parse(head.subarray(first + 1, second).toString('utf8'));
  } catch {
    throw new BackupFileError(`${file} is damaged: its header is not JSON`);
  }
  const db = header?.database;
  if (
    header?.format !== 'sheet-workspace-backup' ||
    !Number.isSafeInteger(db?.bytes) ||
    db.bytes <= 0 ||
    !/^[0-9a-f]{64}$/.test(String(db?.sha256)) ||
    !(header.secret_key === null || isHexKey(header.secret_key))
  ) {
    throw new BackupFileError(`${file} is damaged: its header lacks the database size, checksum or a valid secret key`);
  }
  return { header, offset: second + 1 };
}

/**
 * Opens a database image read-only and checks it is whole and ours: integrity_check says ok and it
 * has run this service's migrations. Returns the last migration's name.
 */
export function checkDatabaseImage(file: string): string | null {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupFileError(`the database in the backup fails its integrity check: ${String(integrity)}`);
    const tables = db.prepare(`select name from sqlite_master where type = 'table' and name in ('kysely_migration', 'users', 'sheets')`).pluck().all();
    if (tables.length !== 3) throw new BackupFileError('the database in the backup is not a Sheet Workspace database (no users, sheets or migrations table)');
    return (db.prepare('select name from kysely_migration order by name desc limit 1').pluck().get() as string | undefined) ?? null;
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    throw new BackupFileError(`the database in the backup cannot be read: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
}
