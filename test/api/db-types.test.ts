/**
 * src/db/types.ts is written by hand; this test holds it to the migrated schema (issue 56 point 6).
 * It migrates a fresh database per dialect (src/db/index.ts openDatabase, which runs migrate), reads
 * each table's columns from the database itself, and compares them with the properties of the
 * interface the `Database` interface maps that table to. A column missing on either side fails.
 * Tables that exist on one side only are listed below, each with its reason.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/index.js';
import type { Dialect } from '../../src/db/types.js';
import { createPgDatabase, dialects } from '../helpers.js';

const TYPES_FILE = path.join(import.meta.dirname, '../..', 'src', 'db', 'types.ts');

/** Tables in the migrated schema that `Database` does not type, and why. */
const UNTYPED_TABLES: Record<Dialect, Record<string, string>> = {
  sqlite: {
    kysely_migration: "Kysely's own record of the migrations run",
    kysely_migration_lock: "Kysely's own migration lock",
    sheets_search_queue: 'sheets the search index thread has still to index (migration 033); filled by triggers, read with raw SQL in src/modules/search/substring',
    search_index_origin: 'the id that ties the search index file to this database (migration 033); raw SQL in src/modules/search/substring/sqlite-index-file.ts',
    search_queue: 'records the unified search has still to index (migration 038; the index itself is in the search index file since 043); filled by triggers, raw SQL in src/modules/search',
    search_vectors: 'embeddings of the optional semantic search (migration 040); raw SQL in src/modules/search/search.embed-store.ts',
  },
  postgres: {
    kysely_migration: "Kysely's own record of the migrations run",
    kysely_migration_lock: "Kysely's own migration lock",
    sheet_tokens: "the sheets' token index of PostgreSQL search (migration 022 and later); raw SQL in src/modules/search/substring/pg-token-index.ts",
    sheet_token_vocab: 'every token the token index holds (migrations 022, 029); raw SQL in src/modules/search/substring/pg-token-index.ts',
    search_docs: 'the unified search index (migration 038); raw SQL in src/modules/search',
    search_queue: 'records the unified search has still to index (migration 038); filled by triggers, raw SQL in src/modules/search',
    search_vectors: 'embeddings of the optional semantic search (migration 040); raw SQL in src/modules/search/search.embed-store.ts',
  },
};

/** Tables `Database` types that a dialect does not have, and why. */
const TABLES_ABSENT: Record<Dialect, Record<string, string>> = {
  sqlite: {},
  postgres: {},
};

/** Columns a dialect has beyond the interface (or the interface beyond the dialect), and why: `table.column`. */
const COLUMNS_ONE_SIDE: Record<Dialect, Record<string, string>> = {
  sqlite: {},
  postgres: {},
};

/** `Database`'s table names mapped to the property names of their interfaces, read with the TypeScript compiler. */
function typedSchema(): Map<string, Set<string>> {
  const source = ts.createSourceFile(TYPES_FILE, fs.readFileSync(TYPES_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const st of source.statements) if (ts.isInterfaceDeclaration(st)) interfaces.set(st.name.text, st);
  const props = (decl: ts.InterfaceDeclaration): ts.PropertySignature[] => {
    assert.equal(decl.heritageClauses, undefined, `${decl.name.text} extends another interface: teach this test to follow it`);
    return decl.members.filter(ts.isPropertySignature);
  };
  const database = interfaces.get('Database');
  assert.ok(database, 'src/db/types.ts has no `interface Database`');
  const out = new Map<string, Set<string>>();
  for (const member of props(database)) {
    const table = member.name.getText(source);
    const type = member.type;
    assert.ok(type && ts.isTypeReferenceNode(type), `Database.${table} is not a plain interface reference`);
    const name = type.typeName.getText(source);
    const decl = interfaces.get(name);
    assert.ok(decl, `Database.${table} names ${name}, which is not an interface in src/db/types.ts`);
    out.set(table, new Set(props(decl).map((p) => p.name.getText(source))));
  }
  return out;
}

async function migratedSchema(handle: DatabaseHandle): Promise<Map<string, Set<string>>> {
  const rows =
    handle.dialect === 'sqlite'
      ? (
          await sql<{ table_name: string; column_name: string }>`
            select m.name as table_name, c.name as column_name
            from sqlite_master m join pragma_table_info(m.name) c
            where m.type = 'table' and m.name not like 'sqlite_%'`.execute(handle.db)
        ).rows
      : (
          await sql<{ table_name: string; column_name: string }>`
            select c.table_name, c.column_name
            from information_schema.columns c
            join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
            where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(handle.db)
        ).rows;
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

async function openFresh(dialect: Dialect): Promise<{ handle: DatabaseHandle; cleanup(): Promise<void> }> {
  if (dialect === 'postgres') {
    const pgDb = await createPgDatabase();
    const handle = await openDatabase({ databaseUrl: pgDb.url, dataDir: os.tmpdir() });
    return { handle, cleanup: async () => (await handle.close(), await pgDb.drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-db-types-'));
  const handle = await openDatabase({ databaseUrl: undefined, dataDir: dir });
  return { handle, cleanup: async () => (await handle.close(), fs.rmSync(dir, { recursive: true, force: true })) };
}

for (const dialect of dialects()) {
  describe(`src/db/types.ts against the migrated schema (${dialect})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const c of cleanups) await c();
    });

    it('every typed table exists with exactly its typed columns, and every other table is listed with a reason', async () => {
      const fresh = await openFresh(dialect);
      cleanups.push(fresh.cleanup);
      const typed = typedSchema();
      const actual = await migratedSchema(fresh.handle);
      const problems: string[] = [];

      for (const [table, columns] of typed) {
        const got = actual.get(table);
        if (!got) {
          if (!TABLES_ABSENT[dialect][table]) problems.push(`table ${table}: typed in Database, missing in the ${dialect} schema`);
          continue;
        }
        for (const c of columns) {
          if (!got.has(c) && !COLUMNS_ONE_SIDE[dialect][`${table}.${c}`]) {
            problems.push(`${table}.${c}: typed, missing in the ${dialect} schema`);
          }
        }
        for (const c of got) {
          if (!columns.has(c) && !COLUMNS_ONE_SIDE[dialect][`${table}.${c}`]) {
            problems.push(`${table}.${c}: in the ${dialect} schema, missing in src/db/types.ts`);
          }
        }
      }
      for (const table of actual.keys()) {
        if (!typed.has(table) && !UNTYPED_TABLES[dialect][table]) {
          problems.push(`table ${table}: in the ${dialect} schema, not in Database (type it, or list it in UNTYPED_TABLES with the reason)`);
        }
      }
      // The lists of exceptions stay true: an entry that no longer applies is an error too.
      for (const table of Object.keys(UNTYPED_TABLES[dialect])) {
        if (!actual.has(table)) problems.push(`UNTYPED_TABLES.${dialect} lists ${table}, which the schema no longer has`);
      }
      for (const table of Object.keys(TABLES_ABSENT[dialect])) {
        if (actual.has(table)) problems.push(`TABLES_ABSENT.${dialect} lists ${table}, which the schema has`);
      }
      for (const key of Object.keys(COLUMNS_ONE_SIDE[dialect])) {
        const [table, column] = key.split('.');
        const inSchema = actual.get(table)?.has(column) ?? false;
        const inTypes = typed.get(table)?.has(column) ?? false;
        if (inSchema === inTypes) problems.push(`COLUMNS_ONE_SIDE.${dialect} lists ${key}, which is now on both sides or neither`);
      }
      assert.deepEqual(problems, []);
    });
  });
}
