import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Migrations are frozen documents (docs/development.md): once landed, a file's text never changes,
 * and it imports nothing that can change later, so a database migrated today and one migrated a year
 * ago ran the same SQL. test/fixtures/migration-hashes.json holds each landed file's sha256.
 */
const DIR = path.resolve(import.meta.dirname, '../../src/db/migrations');
const MANIFEST = path.resolve(import.meta.dirname, '../fixtures/migration-hashes.json');
const ALLOWED_IMPORTS = new Set(['kysely']);

const migrationFiles = () =>
  fs
    .readdirSync(DIR)
    .filter((f) => /^\d{3}_.+\.ts$/.test(f))
    .sort();
const sha256 = (file: string) =>
  createHash('sha256')
    .update(fs.readFileSync(path.join(DIR, file)))
    .digest('hex');

test('no landed migration changed or disappeared, and every migration is listed', () => {
  const manifest: Record<string, string> = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  const present = new Set(migrationFiles());
  for (const [file, hash] of Object.entries(manifest)) {
    assert.ok(present.has(file), `${file} is listed in test/fixtures/migration-hashes.json but is gone: a landed migration is never removed or renamed`);
    assert.equal(sha256(file), hash, `${file} changed after it landed. A landed migration is never edited (databases that already ran it keep the old text): write the change as a new migration instead`);
  }
  const unlisted = [...present].filter((f) => !(f in manifest));
  assert.deepEqual(
    unlisted,
    [],
    `new migration(s) ${unlisted.join(', ')}: add "<file>": "<sha256>" to test/fixtures/migration-hashes.json when it lands (sha256sum src/db/migrations/<file>), which freezes its text`,
  );
});

/** Every module a file names: static imports and re-exports, side-effect imports, import() and require(). */
function importedModules(source: string): string[] {
  const found: string[] = [];
  const patterns = [/^\s*(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gms, /^\s*import\s*['"]([^'"]+)['"]/gm, /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g, /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

test('the import parser sees every form of import', () => {
  const src = `import { sql, type Kysely } from 'kysely';\nimport type {\n  X,\n} from "../types.js";\nimport './side.js';\nexport { a } from '../a.js';\nconst m = await import('../dyn.js');\n`;
  assert.deepEqual(importedModules(src).sort(), ['../a.js', '../dyn.js', '../types.js', './side.js', 'kysely']);
});

test('migrations import nothing but kysely (their SQL and constants live in the file)', () => {
  for (const file of migrationFiles()) {
    const others = importedModules(fs.readFileSync(path.join(DIR, file), 'utf8')).filter((m) => !ALLOWED_IMPORTS.has(m));
    assert.deepEqual(others, [], `${file} imports ${others.join(', ')}: copy what it needs into the migration (live code changes later; the migration must not)`);
  }
});
