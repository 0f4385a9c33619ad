import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { AppError } from '../errors.js';

type Options = { name?: string; plan?: string; json?: boolean; userId?: string };
export type UsersAction = 'create' | 'list' | 'set-plan' | 'key';

/** `npm run cli -- users create|list|set-plan|key`, on the database the environment names. */
export async function runUsersCommand(action: UsersAction, o: Options): Promise<void> {
  const c = await createContainer(loadConfig());
  try {
    if (action === 'create') {
      const r = await c.accounts.create({ name: o.name ?? '', plan: o.plan ?? 'free' });
      print(o.json, { user_id: r.user_id, api_key: r.api_key }, `Created ${r.user_id} (${r.plan}). API key, shown once:\n${r.api_key}`);
    } else if (action === 'list') {
      const rows = await c.accounts.list();
      print(
        o.json,
        rows.map((u) => ({ user_id: u.id, name: u.name, plan: u.plan, created_at: u.created_at })),
        rows.map((u) => `${u.id}  ${u.plan.padEnd(8)}  ${u.name}`).join('\n') || 'no users',
      );
    } else if (action === 'key') {
      const r = await c.accounts.newKey(o.userId ?? '', o.name ?? 'cli');
      print(o.json, { user_id: r.user_id, api_key: r.api_key }, `New API key for ${r.user_id} ("${r.name}"), shown once:\n${r.api_key}`);
    } else {
      const r = await c.accounts.setPlan(o.userId ?? '', o.plan ?? '');
      print(o.json, r, `${r.user_id} is now on the ${r.plan} plan`);
    }
  } catch (err) {
    if (err instanceof AppError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 2;
    } else throw err;
  } finally {
    await c.close();
  }
}

function print(json: boolean | undefined, value: unknown, text: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}
