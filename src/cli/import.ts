import fs from 'node:fs';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { AppError } from '../errors.js';

/** `npm run cli -- users import <zip> --name <name>`: a new account holding everything an account export holds. */
export async function runUsersImport(file: string, o: { name: string; plan?: string; json?: boolean }): Promise<void> {
  let zip: Buffer;
  try {
    zip = fs.readFileSync(file);
  } catch (err) {
    process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const c = await createContainer(loadConfig());
  try {
    const r = await c.accountImport(zip, o.name, o.plan);
    const out = r.webhooks.length ? r : { user_id: r.user_id, api_key: r.api_key };
    const hooks = r.webhooks.map((w) => `\nwebhook ${w.id} ${w.url}: new signing secret ${w.secret}`).join('');
    process.stdout.write(o.json ? `${JSON.stringify(out)}\n` : `Imported into ${r.user_id}. API key, shown once:\n${r.api_key}${hooks}\n`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 2;
  } finally {
    await c.close();
  }
}
