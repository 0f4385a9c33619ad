/**
 * Storage cost of sheet revisions: N sheets of bench content (1-3 KB of HTML), each edited 10 times
 * (a paragraph appended to one column), measured on the database and extrapolated to 100,000 sheets.
 *   node --import tsx bench/revisions-storage.ts [sheets=500]            (SQLite)
 *   DATABASE_URL=postgres://... node --import tsx bench/revisions-storage.ts [sheets]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { unpackContent } from '../src/modules/sheets/sheets.revisions.repo.js';
import { rng, sheetContent } from './content.js';

const N = Number(process.argv[2] ?? 500);
const EDITS = 10;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-rev-'));
const c = await createContainer(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0', DATABASE_URL: process.env.DATABASE_URL ?? '' }));
const { user_id } = await c.accounts.create({ name: 'bench', plan: 'business' });
const auth = { userId: user_id, plan: 'business' as const, keyId: 'key_bench', actor: { type: 'api_key' as const, id: 'key_bench', name: 'bench' } };
const r = rng(13);

let htmlBytes = 0;
for (let i = 0; i < N; i++) {
  const sheet = await c.sheets.create(auth, sheetContent(r));
  for (let e = 0; e < EDITS; e++) {
    const extra = sheetContent(r).content.col1.slice(0, 200);
    await c.sheets.append(auth, sheet.id, { column: `col${1 + Math.floor(r() * Object.keys(sheet.content).length)}`, html: extra });
  }
}
const raw = await c.db
  .selectFrom('sheet_revisions')
  .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(sql`length(content)`).as('packed')])
  .executeTakeFirstOrThrow();
const sheetsRaw = await c.db
  .selectFrom('sheets')
  .select((eb) => eb.fn.sum<number>(sql`length(content)`).as('chars'))
  .executeTakeFirstOrThrow();
htmlBytes = Number(sheetsRaw.chars);

let unpacked = 0;
for (const row of await c.db.selectFrom('sheet_revisions').select('content').execute()) unpacked += Buffer.byteLength(unpackContent(row.content));

let tableBytes: number;
if (c.database.dialect === 'postgres') {
  const { rows } = await sql<{ bytes: string }>`select pg_total_relation_size('sheet_revisions') as bytes`.execute(c.db);
  tableBytes = Number(rows[0].bytes);
} else {
  const { rows } = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name in ('sheet_revisions', 'sqlite_autoindex_sheet_revisions_1')`.execute(c.db);
  tableBytes = Number(rows[0].bytes);
}
const per = tableBytes / Number(raw.n);
const out = {
  dialect: c.database.dialect,
  sheets: N,
  revisions: Number(raw.n),
  avgCurrentContentChars: Math.round(htmlBytes / N),
  avgUnpackedContentBytes: Math.round(unpacked / Number(raw.n)),
  avgPackedContentBytes: Math.round(Number(raw.packed) / Number(raw.n)),
  tableAndIndexBytes: tableBytes,
  bytesPerRevision: Math.round(per),
  extrapolated100kx10GB: +((per * 100_000 * 10) / 1e9).toFixed(2),
};
console.log(JSON.stringify(out));
await c.close();
fs.rmSync(dataDir, { recursive: true, force: true });
