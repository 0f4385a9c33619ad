import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pkg from '../../package.json' with { type: 'json' };
import { loadConfig, type Config } from '../config.js';
import { BackupFileError, DB_FILE, MAGIC, checkDatabaseImage, sha256File, type BackupHeader } from './backup-file.js';

/**
 * `backup <file>`: a consistent snapshot of DATA_DIR's SQLite database while the server runs and
 * writes, taken with SQLite's online backup (a file copy could catch the database between a WAL
 * commit and its checkpoint), plus the server key, in one owner-only file (format: backup-file.ts).
 */
export async function runBackup(target: string, o: { force?: boolean }): Promise<void> {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupFileError('backup copies the SQLite database in DATA_DIR, but DATABASE_URL names PostgreSQL: use pg_dump (docs/operations.md)');
  }
  const dbFile = path.join(config.dataDir, DB_FILE);
  if (!fs.existsSync(dbFile)) throw new BackupFileError(`no database at ${dbFile}: set DATA_DIR to the data directory the server uses`);
  const out = path.resolve(target);
  if (fs.existsSync(out) && !o.force) throw new BackupFileError(`${out} exists; choose another name or pass --force to replace it`);
  const serverKey = readServerKey(config);

  const staging = fs.mkdtempSync(path.join(path.dirname(out), '.sw-backup-'));
  try {
    const image = path.join(staging, DB_FILE);
    await snapshot(dbFile, image);
    const schema = checkDatabaseImage(image);
    const header: BackupHeader = {
      format: 'sheet-workspace-backup',
      created_at: new Date().toISOString(),
      app_version: pkg.version,
      schema,
      database: { bytes: fs.statSync(image).size, sha256: await sha256File(image) },
      secret_key: serverKey,
    };
    const partial = path.join(staging, 'backup.partial');
    const fd = fs.openSync(partial, 'wx', 0o600);
    const head = Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`, 'utf8');
    fs.writeSync(fd, head);
    await pipeline(fs.createReadStream(image), fs.createWriteStream('', { fd, start: head.length, autoClose: false }));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(partial, out);
    fs.chmodSync(out, 0o600);
    const mb = (header.database.bytes / 1048576).toFixed(1);
    process.stdout.write(`Backed up ${dbFile} (${mb} MB, schema ${schema ?? 'none'}) to ${out}\n`);
    if (!serverKey) process.stdout.write('The server had no secret key yet (no DATA_DIR/secret.key, no SECRET_KEY): the backup holds none.\n');
    else process.stdout.write('It holds the server key that decrypts webhook secrets: keep it as private as the data directory.\n');
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * One backup step copies every page under one read transaction: a consistent snapshot that includes
 * every commit made before it began, and writers (WAL) go on meanwhile. Steps of 100 pages would
 * restart from the first page whenever the server committed between two of them.
 */
async function snapshot(dbFile: string, image: string): Promise<void> {
  const source = new SQLite(dbFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(image, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  // A self-contained file: the copy keeps the WAL flag, and restore brings back one file, not three.
  const copy = new SQLite(image);
  copy.pragma('journal_mode = DELETE');
  copy.close();
}

/** The key the server encrypts webhook secrets with: SECRET_KEY when set, else DATA_DIR/secret.key (never created here). */
function readServerKey(config: Config): string | null {
  if (config.secretKey) return config.secretKey.toLowerCase();
  const file = path.join(config.dataDir, 'secret.key');
  if (!fs.existsSync(file)) return null;
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new BackupFileError(`${file} must hold 64 hex characters (a 32-byte key)`);
  return hex;
}
