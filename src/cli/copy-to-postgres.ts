import { loadConfig } from '../config.js';
import { CopyRefused, copySqliteToPostgres, type CopyProgress } from '../db/copy-to-postgres.js';

/** `npm run cli -- copy-to-postgres <postgres-url>`: DATA_DIR's SQLite database into an empty PostgreSQL one. */
export async function runCopyToPostgres(url: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    process.stderr.write('the target must be a postgres:// or postgresql:// URL\n');
    process.exitCode = 2;
    return;
  }
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const { dataDir } = loadConfig(env);
  const tty = process.stderr.isTTY;
  const started = Date.now();
  const onProgress = ({ table, copied, total }: CopyProgress) => {
    if (tty) process.stderr.write(`\r\x1b[K${table}: ${copied.toLocaleString('en')} of ${total.toLocaleString('en')}`);
  };
  try {
    const results = await copySqliteToPostgres({ dataDir, postgresUrl: url, onProgress });
    if (tty) process.stderr.write('\r\x1b[K');
    const width = Math.max(...results.map((r) => r.table.length));
    const lines = results.map((r) => `${r.table.padEnd(width)}  ${String(r.source).padStart(9)}  ${String(r.target).padStart(9)}${r.source === r.target ? '' : '  MISMATCH'}`);
    process.stdout.write(`${'table'.padEnd(width)}     sqlite  postgres\n${lines.join('\n')}\n`);
    if (results.some((r) => r.source !== r.target)) {
      process.stderr.write('row counts differ: the copy is incomplete; do not switch to it\n');
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      `\nCopied in ${((Date.now() - started) / 1000).toFixed(1)} s. Serve it with DATABASE_URL=<that url> npm start, keeping DATA_DIR=${dataDir}\n` +
        '(its secret.key decrypts the webhook secrets) or setting SECRET_KEY to the same key on every machine.\n',
    );
  } catch (err) {
    if (tty) process.stderr.write('\n');
    if (!(err instanceof CopyRefused)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 2;
  }
}
