import SQLite from 'better-sqlite3';

/**
 * Piscina task (src/db/sqlite/sqlite-readers.ts): copies committed pages from the WAL into the database file
 * (PASSIVE: it waits for no reader or writer). On the main connection this ran inside whichever write
 * commit crossed the WAL's threshold. Its own thread at normal priority, not a reader thread: those
 * run at nice 19, and the last pass of a checkpoint runs while every write waits for it.
 */
let writable: SQLite.Database | undefined;
export default function checkpoint({ file }: { file: string }): void {
  if (!writable) {
    writable = new SQLite(file, { fileMustExist: true });
    writable.pragma('busy_timeout = 5000');
  }
  writable.pragma('wal_checkpoint(PASSIVE)');
}
