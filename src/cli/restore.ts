import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { loadConfig } from '../config.js';
import { searchIndexFileOf } from '../db/sqlite/search-index-file.js';
import { BackupFileError, DB_FILE, checkDatabaseImage, readHeader } from './backup-file.js';

/**
 * `restore <file> --data-dir <dir>`: the database and server key of a backup (backup.ts) into a data
 * directory. Everything is checked before anything is written (magic line, header, size, sha256,
 * integrity_check, our tables): a corrupt or foreign file changes nothing. A non-empty directory is
 * refused unless --force, which replaces its database (and stale -wal/-shm) and secret.key only.
 */
export async function runRestore(file: string, o: { dataDir?: string; force?: boolean }): Promise<void> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupFileError(`${source} does not exist`);
  const target = path.resolve(o.dataDir ?? loadConfig().dataDir);
  const { header, offset } = readHeader(source);
  const stored = fs.statSync(source).size - offset;
  if (stored !== header.database.bytes) {
    throw new BackupFileError(`${source} is damaged: it holds ${stored} bytes of database where its header says ${header.database.bytes}`);
  }
  const present = fs.existsSync(target) ? fs.readdirSync(target) : [];
  if (present.length > 0 && !o.force) {
    throw new BackupFileError(
      `${target} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}): restore into a new or empty directory, or pass --force to replace its database and secret key (stop the server first)`,
    );
  }

  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-restore-'));
  try {
    const image = path.join(staging, DB_FILE);
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(fs.createReadStream(source, { start: offset }), hashing, fs.createWriteStream(image, { mode: 0o600 }));
    if (hash.digest('hex') !== header.database.sha256) throw new BackupFileError(`${source} is damaged: the database's checksum does not match its header`);
    const schema = checkDatabaseImage(image);

    // Checked: from here on the directory changes.
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    const dbFile = path.join(target, DB_FILE);
    const incoming = path.join(target, `.${DB_FILE}.restoring`);
    fs.copyFileSync(image, incoming);
    fs.chmodSync(incoming, 0o600);
    fsyncFile(incoming);
    // A -wal left by the replaced database would be replayed into the restored one.
    for (const stale of [`${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) fs.rmSync(stale, { force: true });
    // The replaced database's search index: rebuilt from the restored one at start (the server would
    // also see that it does not match; removed, it is not read at all).
    const searchIndex = searchIndexFileOf(dbFile);
    for (const stale of [searchIndex, `${searchIndex}-wal`, `${searchIndex}-shm`]) fs.rmSync(stale, { force: true });
    fs.renameSync(incoming, dbFile);
    if (header.secret_key) writePrivate(path.join(target, 'secret.key'), `${header.secret_key}\n`);
    process.stdout.write(
      `Restored the backup of ${header.created_at} (version ${header.app_version}, schema ${schema ?? 'none'}) into ${target}\n` +
        `Start the server with DATA_DIR=${target}; migrations newer than the backup run at start.\n`,
    );
    if (!header.secret_key) process.stdout.write('The backup holds no server key: webhook secrets need the old SECRET_KEY or secret.key.\n');
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function writePrivate(file: string, text: string): void {
  const partial = `${file}.restoring`;
  fs.writeFileSync(partial, text, { mode: 0o600 });
  fs.chmodSync(partial, 0o600);
  fsyncFile(partial);
  fs.renameSync(partial, file);
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
