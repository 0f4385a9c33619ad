import fs from 'node:fs';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { AppError } from '../errors.js';
import { DEFAULT_UNZIP_BOUNDS, IMPORT_MAX_ENTRY_BYTES, parseSize, type UnzipBounds } from '../modules/account/account.import-unzip.js';

type Options = { name: string; plan?: string; json?: boolean; maxUnpacked?: string; maxEntry?: string };

const refuse = (message: string) => {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
};

/** The bounds the options ask for, or a message saying what is wrong with them. */
function boundsOf(o: Options): UnzipBounds | string {
  const bounds = { ...DEFAULT_UNZIP_BOUNDS };
  for (const [flag, text, key] of [
    ['--max-unpacked', o.maxUnpacked, 'maxBytes'],
    ['--max-entry', o.maxEntry, 'maxEntryBytes'],
  ] as const) {
    if (text === undefined) continue;
    const n = parseSize(text);
    if (n === undefined) return `${flag} must be a size: bytes, or a number with K, M or G (e.g. 512M), not '${text}'`;
    bounds[key] = n;
  }
  if (bounds.maxEntryBytes > IMPORT_MAX_ENTRY_BYTES) return `--max-entry can be at most ${IMPORT_MAX_ENTRY_BYTES} bytes (the longest string Node can hold; each entry is read as one)`;
  return bounds;
}

/** `npm run cli -- users import <zip> --name <name>`: a new account holding everything an account export holds. */
export async function runUsersImport(file: string, o: Options): Promise<void> {
  const bounds = boundsOf(o);
  if (typeof bounds === 'string') return refuse(bounds);
  let zip: Buffer;
  try {
    // The zip holds each record twice (JSON, and Markdown the import skips), each compressed: more than
    // twice the records' bound is no export, and is refused before it is read into memory.
    const size = fs.statSync(file).size;
    if (size > 2 * bounds.maxBytes) return refuse(`${file} is ${size} bytes, more than twice --max-unpacked (${bounds.maxBytes} bytes); refused as not an account export`);
    zip = fs.readFileSync(file);
  } catch (err) {
    return refuse(`cannot read ${file}: ${(err as Error).message}`);
  }
  const c = await createContainer(loadConfig());
  try {
    const r = await c.accountImport(zip, o.name, o.plan, bounds);
    const out = r.webhooks.length ? r : { user_id: r.user_id, api_key: r.api_key };
    const hooks = r.webhooks.map((w) => `\nwebhook ${w.id} ${w.url}: new signing secret ${w.secret}`).join('');
    process.stdout.write(o.json ? `${JSON.stringify(out)}\n` : `Imported into ${r.user_id}. API key, shown once:\n${r.api_key}${hooks}\n`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    refuse(err.message);
  } finally {
    await c.close();
  }
}
