import fs from 'node:fs';
import { loadConfig } from '../config.js';
import { CopyRefused, copySqliteToPostgres, type CopyProgress } from './copy-database.js';

type Target = { url?: string; urlFile?: string };

/**
 * The target URL: the argument, else the first line of --url-file, else DATABASE_URL (the variable the
 * server is then started with). An argument is in every process listing (ps) with its password, so
 * it still works but draws a warning; a file or the environment does not show.
 */
function targetUrl(o: Target, env: NodeJS.ProcessEnv): string | Error {
  if (o.url !== undefined && o.urlFile !== undefined) return new Error('give the target either as an argument or with --url-file, not both');
  if (o.urlFile !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(o.urlFile, 'utf8');
      if ((fs.statSync(o.urlFile).mode & 0o077) !== 0) process.stderr.write(`warning: ${o.urlFile} is readable by other users of this machine (chmod 600 it)\n`);
    } catch (err) {
      return new Error(`cannot read --url-file ${o.urlFile}: ${(err as Error).message}`);
    }
    return text.split(/\r?\n/)[0]!.trim();
  }
  if (o.url !== undefined) {
    if (passwordIn(o.url)) {
      process.stderr.write('warning: a password in the command line is visible to every user of this machine (ps); prefer DATABASE_URL=<url> or --url-file <path>\n');
    }
    return o.url;
  }
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return new Error('no target: give the PostgreSQL URL in DATABASE_URL, in a file with --url-file <path>, or as an argument (visible in ps)');
}

const passwordIn = (url: string) => {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
};

/** `npm run cli -- copy-to-postgres [<postgres-url>] [--url-file <path>]`: DATA_DIR's SQLite database into an empty PostgreSQL one. */
export async function runCopyToPostgres(o: Target): Promise<void> {
  const { DATABASE_URL: _source, ...env } = process.env;
  const url = targetUrl(o, process.env);
  if (url instanceof Error || !/^postgres(ql)?:\/\//.test(url)) {
    process.stderr.write(`${url instanceof Error ? url.message : 'the target must be a postgres:// or postgresql:// URL'}\n`);
    process.exitCode = 2;
    return;
  }
  // DATABASE_URL names the target here; the source is always DATA_DIR's SQLite database.
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
