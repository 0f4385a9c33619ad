import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { dbEnv } from '../mcp-helpers.js';
import { handZip, zerosDeflated } from '../zip-bomb.js';

// Audit findings 11 and 13: `users import` bounds what a zip may unpack to (a 1.2 MB zip inflating to 1.2 GB took
// 1.34 GB and crashed with exit 1), and never takes the plan from the manifest, which anyone holding the zip can edit.
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
// Prints the process's peak resident memory as it exits, so a test can see what an import allocated.
const PRINT_MAX_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss_kb='+process.resourceUsage().maxRSS+'\\n'))`;

async function importZip(s: TestServer, bytes: Uint8Array, args: string[] = []) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-import-')), 'export.zip');
  fs.writeFileSync(file, bytes);
  try {
    const r = await run(process.execPath, ['--import', PRINT_MAX_RSS, '--import', 'tsx', 'src/main.ts', 'users', 'import', file, '--name', 'copy', '--json', ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0', ...dbEnv(s) },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr, maxRssMb: maxRssMb(r.stderr) };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, maxRssMb: maxRssMb(e.stderr) };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
const maxRssMb = (stderr: string) => Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1]) / 1024;

const manifest = (plan: string) => ({ format: 'sheet-workspace-account-export', format_version: 1, account: { id: 'usr_x', name: 'x', plan }, counts: {} });
/** The smallest export the import accepts: a manifest, one sheet, and the other record files empty. */
function exportFiles(plan = 'business'): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {
    'manifest.json': strToU8(JSON.stringify(manifest(plan))),
    'records/sheets.jsonl': strToU8(`${JSON.stringify({ sheet: { id: 'sht_1', title: 'Kept', content: { col1: '<p>x</p>' }, folder: null, tags: [], trashedAt: null }, revisions: [] })}\n`),
    'records/knowledge.json': strToU8('{"solutions":[],"snippets":[]}'),
  };
  for (const f of ['sessions', 'handovers', 'todos', 'work_logs', 'sparks', 'webhooks']) files[`records/${f}.json`] = strToU8('[]');
  return files;
}
/** The export's entries as hand-zip entries (honest sizes), to add bombs beside them. */
const honest = (files: Record<string, Uint8Array>) => Object.entries(files).map(([name, data]) => ({ name, deflated: deflateRawSync(data), declaredSize: data.length }));

for (const dialect of dialects()) {
  describe(`users import: plan and unpacked-size bounds [${dialect}]`, () => {
    const { s } = useServer(dialect);
    const users = async () => (await s.c.db.selectFrom('users').select('id').execute()).length;
    const planOf = async (id: string) => (await s.c.db.selectFrom('users').select('plan').where('id', '=', id).executeTakeFirstOrThrow()).plan;

    it('the plan is free unless --plan says otherwise, whatever the manifest says', async () => {
      const zip = zipSync(exportFiles('business'));
      const plain = await importZip(s, zip);
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(await planOf(JSON.parse(plain.stdout).user_id), 'free');
      const chosen = await importZip(s, zip, ['--plan', 'pro']);
      assert.equal(chosen.code, 0, chosen.stderr);
      assert.equal(await planOf(JSON.parse(chosen.stdout).user_id), 'pro');
    });

    it('an entry or the records together past a bound set low are refused with exit 2, nothing written', async () => {
      const before = await users();
      const files = honest(exportFiles());
      const bomb = handZip([...files.filter((f) => f.name !== 'records/todos.json'), { name: 'records/todos.json', deflated: zerosDeflated(3), declaredSize: 2 }]);
      assert.ok(bomb.length < 10_000);
      const entry = await importZip(s, bomb, ['--max-entry', '1M']);
      assert.equal(entry.code, 2, entry.stderr);
      assert.match(entry.stderr, /records\/todos\.json unpacks to more than 1 MiB \(the most one entry may, --max-entry\); refused as not an account export/);
      const total = await importZip(s, bomb, ['--max-unpacked', '2M']);
      assert.equal(total.code, 2, total.stderr);
      assert.match(total.stderr, /the zip's records unpack to more than 2 MiB \(--max-unpacked\); refused as not an account export/);
      const bad = await importZip(s, bomb, ['--max-entry', 'lots']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--max-entry must be a size: bytes, or a number with K, M or G \(e\.g\. 512M\), not 'lots'/);
      assert.equal(await users(), before);
    });

    it('the default bounds refuse a 1.2 MB zip inflating to 1.2 GB without holding it (peak memory stays low)', async () => {
      const before = await users();
      const bomb = handZip([...honest(exportFiles()).filter((f) => f.name !== 'records/sheets.jsonl'), { name: 'records/sheets.jsonl', deflated: zerosDeflated(1200), declaredSize: 1000 }]);
      assert.ok(bomb.length < 1.3e6, `${bomb.length} bytes`);
      const r = await importZip(s, bomb);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /records\/sheets\.jsonl unpacks to more than 512\.0 MiB \(the most one entry may, --max-entry\)/);
      assert.ok(r.maxRssMb < 400, `peak memory ${r.maxRssMb.toFixed(0)} MB`);
      assert.equal(await users(), before);
    });

    it('entries the import does not read (the Markdown copies) are never inflated: a bomb there costs nothing', async () => {
      const zip = handZip([...honest(exportFiles()), { name: 'markdown/sheets/Kept.md', deflated: zerosDeflated(1200), declaredSize: 10 }]);
      const r = await importZip(s, zip);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.maxRssMb < 400, `peak memory ${r.maxRssMb.toFixed(0)} MB`);
      const key = JSON.parse(r.stdout).api_key;
      assert.deepEqual(
        (await s.req('GET', '/v1/sheets', { key })).body.sheets.map((x: { title: string }) => x.title),
        ['Kept'],
      );
    });
  });
}
