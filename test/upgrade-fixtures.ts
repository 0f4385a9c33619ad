import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import type { Dialect } from '../src/db/types.js';
import { createPgDatabase, startServer, type TestServer } from './helpers.js';
import { webhookEnv } from './webhooks-helpers.js';

/**
 * The databases earlier versions wrote (test/fixtures/upgrade/<commit>/, made by
 * scripts/make-upgrade-fixtures.mjs) and the manifest of what each holds.
 */
export const UPGRADE_FIXTURES = path.resolve(import.meta.dirname, 'fixtures/upgrade');

export interface UpgradeManifest {
  commit: string;
  user_id: string;
  secret_key?: string;
  api_keys: { id: string | null; name: string; key: string; active: boolean; scopes: string[] | null }[];
  webhooks: { id: string; url: string; events: string[]; secret: string }[];
  deliveries: { id: string; event: string; event_id: string; status: string }[];
  sheets: { id: string; title: string; content: Record<string, string>; folder: string | null; tags: string[]; version?: number }[];
  revisions: Record<string, { version: number; title: string; content: Record<string, string>; folder: string | null; tags: string[] }[]>;
  sessions: { id: string; title: string; summary: string; project: string | null; tags: string[]; files_changed: string[] }[];
  handovers: { session_id: string; handover_id: string; title: string }[];
  knowledge: { type: 'solutions' | 'snippets'; id: string; entry: Record<string, unknown> }[];
  todos: { id: string; content: string; status: string; project: string; priority: string; activeForm: string | null }[];
  searches: Record<string, { expected: string[] }>;
}

export const fixtureCommits = () => (fs.existsSync(UPGRADE_FIXTURES) ? fs.readdirSync(UPGRADE_FIXTURES).sort() : []);

export function readManifest(commit: string, dialect: Dialect): UpgradeManifest {
  return JSON.parse(fs.readFileSync(path.join(UPGRADE_FIXTURES, commit, dialect, 'manifest.json'), 'utf8'));
}

/** Starts today's code on a copy of the fixture's database: migrations run at start, as in an upgrade. */
export async function startUpgraded(commit: string, dialect: Dialect, m: UpgradeManifest): Promise<TestServer> {
  const dir = path.join(UPGRADE_FIXTURES, commit, dialect);
  if (dialect === 'sqlite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sw-upgrade-${commit}-`));
    fs.writeFileSync(path.join(dataDir, 'sheet-workspace.db'), zlib.gunzipSync(fs.readFileSync(path.join(dir, 'sheet-workspace.db.gz'))), { mode: 0o600 });
    fs.copyFileSync(path.join(dir, 'secret.key'), path.join(dataDir, 'secret.key'));
    fs.chmodSync(path.join(dataDir, 'secret.key'), 0o600);
    const s = await startServer('sqlite', { dataDir, env: webhookEnv() });
    const close = s.close;
    s.close = async () => {
      await close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    return s;
  }
  const db = await createPgDatabase();
  await restorePlainDump(db.url, zlib.gunzipSync(fs.readFileSync(path.join(dir, 'dump.sql.gz'))).toString('utf8'));
  const s = await startServer('postgres', { databaseUrl: db.url, env: webhookEnv({ SECRET_KEY: m.secret_key! }) });
  const close = s.close;
  s.close = async () => {
    await close();
    await db.drop();
  };
  return s;
}

/** A plain pg_dump (INSERTs, no COPY) run as one script; psql's meta-commands (\restrict) are dropped. */
async function restorePlainDump(url: string, dump: string): Promise<void> {
  const script = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}
