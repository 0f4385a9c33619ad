/**
 * `npm run eval`: the search benchmark (issue 55). Generates the corpus and questions
 * (bench/eval/corpus.ts), writes the records through the real REST API of a server started as the
 * tests start one (SQLite; and PostgreSQL when TEST_POSTGRES_URL or DATABASE_URL is set, in a fresh
 * database), asks every question through GET /v1/search, and prints per category recall@1, recall@5,
 * MRR (over the first 10 results), p95 latency and the mean result size in characters.
 *
 * Flags: --only=sqlite|postgres  --json=FILE (also write the figures as JSON)  --seed=N
 *        --misses=K (list the questions whose answer is not within the first K, with what came first)
 * The clock is set to each record's time before it is written, so recency is that of the corpus.
 */
import { readIndex } from '../../src/modules/search/search.sqlite.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { manualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { freshPostgres } from '../pg.js';
import { countVectors } from '../../src/modules/search/search.embed-store.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../../test/fake-embeddings.js';
import { CATEGORIES, generate, type Category, type EvalQuestion, type EvalRecord } from './corpus.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as [string, string][]);
const START = Date.parse('2025-01-06T09:00:00Z');
const HOUR = 3_600_000;
const LIMIT = 10;

interface Figures {
  category: Category | 'all';
  n: number;
  r1: number;
  r5: number;
  mrr: number;
  p95: number;
  chars: number;
  empty: number;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function run(dialect: 'sqlite' | 'postgres', records: EvalRecord[], questions: EvalQuestion[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-eval-'));
  const admin = process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL;
  const db = dialect === 'postgres' ? await freshPostgres(admin!) : undefined;
  const clock = manualClock(new Date(START));
  // --embeddings: semantic search through the deterministic stand-in of /v1/embeddings (test/fake-embeddings.ts).
  const fake: FakeEmbeddings | undefined = 'embeddings' in args ? await startFakeEmbeddings() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_OWNER: '0',
    RATE_LIMIT_DISABLED: '1',
    ...(db ? { DATABASE_URL: db.url } : {}),
    ...(fake ? { EMBEDDINGS_URL: fake.url, EMBEDDINGS_MODEL: 'fake-embed-1' } : {}),
  });
  const c = await createContainer(config, { clock });
  const app = await buildApp(c, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  try {
    const { api_key: key } = await c.accounts.create({ name: 'eval', plan: 'business' });
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return { body: JSON.parse(text), chars: text.length };
    };
    const ids = new Map<string, string>();
    const loadStart = performance.now();
    for (const rec of [...records].sort((a, b) => a.at - b.at)) {
      clock.set(new Date(START + rec.at * HOUR));
      ids.set(rec.key, await write(call, rec));
    }
    const loadMs = performance.now() - loadStart;
    if (fake) {
      // Every record embedded before the questions (the background embedder, as in production).
      const embedStart = performance.now();
      // On SQLite the index is in the search index file, read on the reader threads (migration 043).
      const docs = async () =>
        Number(
          dialect === 'sqlite'
            ? (await readIndex(c.db, sql<{ n: number }>`select count(*) as n from search_index.search_docs`))[0].n
            : (await sql<{ n: number | string }>`select count(*) as n from search_docs`.execute(c.db)).rows[0].n,
        );
      while ((await countVectors(c.db, 'fake-embed-1')) < (await docs()) || c.search.embedder?.busy()) await new Promise((r) => setTimeout(r, 200));
      console.log(`${dialect}: embedded ${await docs()} records in ${Math.round(performance.now() - embedStart)} ms after the last write (${fake.requests} requests)`);
    }
    // Ask: the figures per category.
    const rows: { q: EvalQuestion; rank: number; ms: number; chars: number; empty: boolean }[] = [];
    for (const q of questions) {
      const params = new URLSearchParams({ q: q.q, limit: String(LIMIT), ...(q.prefer_project ? { prefer_project: q.prefer_project } : {}) });
      const t = performance.now();
      const r = await call('GET', `/v1/search?${params}`);
      const ms = performance.now() - t;
      const got = (r.body.results as { id: string }[]).map((x) => x.id);
      if (args.misses)
        q.top = (r.body.results as { title: string }[])
          .slice(0, 3)
          .map((x) => x.title)
          .join(' | ');
      const wanted = new Set(q.answers.map((k) => ids.get(k)));
      const rank = got.findIndex((id) => wanted.has(id)) + 1;
      rows.push({ q, rank, ms, chars: JSON.stringify(r.body.results).length, empty: got.length === 0 });
    }
    return {
      figures: figures(rows),
      loadMs,
      records: records.length,
      misses: rows
        .filter((r) => r.q.answers.length > 0 && (r.rank === 0 || r.rank > Number(args.misses)))
        .map((r) => `${r.q.category}: ${r.q.q.split('\n')[0]} (rank ${r.rank || '-'}; wanted ${r.q.answers.map((k) => records.find((x) => x.key === k)?.title).join(' / ')}; got ${r.q.top})`),
    };
  } finally {
    await app.close();
    await c.close();
    await db?.drop();
    await fake?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Call = (method: string, url: string, body?: unknown) => Promise<{ body: any }>;
async function write(call: Call, r: EvalRecord): Promise<string> {
  switch (r.kind) {
    case 'session':
      return (await call('POST', '/v1/sessions', { title: r.title, summary: r.body, project: r.project ?? undefined, tags: r.tags, files_changed: r.files })).body.session.id;
    case 'sheet':
      return (await call('POST', '/v1/sheets', { title: r.title, folder: r.project ?? undefined, content: { col1: `<p>${escapeHtml(r.body)}</p>` } })).body.sheet.id;
    case 'solution':
      return (await call('POST', '/v1/knowledge?type=solutions', { title: r.title, error: r.error, content: r.body, language: r.language, tags: r.tags })).body.solution.id;
    case 'snippet':
      return (await call('POST', '/v1/knowledge?type=snippets', { title: r.title, content: r.body, description: r.description, language: r.language, tags: r.tags })).body.snippet.id;
    case 'todo': {
      const res = await call('POST', '/v1/todos', { project: r.project, todos: [{ content: r.title, status: r.status ?? 'pending' }] });
      const todo = (res.body.todos as { id: string; content: string }[]).find((t) => t.content === r.title);
      if (!todo) throw new Error(`todo not returned: ${r.title}`);
      return todo.id;
    }
  }
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] : 0;
};

function figures(rows: { q: EvalQuestion; rank: number; ms: number; chars: number; empty: boolean }[]): Figures[] {
  const of = (category: Category | 'all', sel: typeof rows): Figures => {
    const answered = sel.filter((r) => r.q.answers.length > 0);
    const n = answered.length || 1;
    return {
      category,
      n: sel.length,
      r1: answered.filter((r) => r.rank === 1).length / n,
      r5: answered.filter((r) => r.rank >= 1 && r.rank <= 5).length / n,
      mrr: answered.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / n,
      p95: p95(sel.map((r) => r.ms)),
      chars: sel.reduce((sum, r) => sum + r.chars, 0) / (sel.length || 1),
      empty: sel.filter((r) => r.empty).length / (sel.length || 1),
    };
  };
  return [
    ...CATEGORIES.map((c) =>
      of(
        c,
        rows.filter((r) => r.q.category === c),
      ),
    ),
    of(
      'all',
      rows.filter((r) => r.q.category !== 'no_answer'),
    ),
  ];
}

export function table(title: string, f: Figures[]): string {
  const fix = (x: number, d = 2) => x.toFixed(d);
  const lines = [`${title}`, '', '| category | questions | recall@1 | recall@5 | MRR | p95 ms | result chars | no result |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const x of f) {
    const answered = x.category !== 'no_answer';
    lines.push(`| ${x.category} | ${x.n} | ${answered ? fix(x.r1) : '-'} | ${answered ? fix(x.r5) : '-'} | ${answered ? fix(x.mrr) : '-'} | ${fix(x.p95, 1)} | ${Math.round(x.chars)} | ${fix(x.empty)} |`);
  }
  return lines.join('\n');
}

async function main() {
  const { records, questions } = generate(Number(args.seed ?? 55));
  const counts = Object.entries(records.reduce<Record<string, number>>((m, r) => ((m[r.kind] = (m[r.kind] ?? 0) + 1), m), {}));
  console.log(`corpus: ${records.length} records (${counts.map(([k, n]) => `${n} ${k}s`).join(', ')}), ${questions.length} questions`);
  const dialects: ('sqlite' | 'postgres')[] = ['sqlite'];
  if (process.env.TEST_POSTGRES_URL || process.env.DATABASE_URL) dialects.push('postgres');
  const out: Record<string, unknown> = {};
  for (const dialect of dialects.filter((d) => !args.only || args.only === d)) {
    const result = await run(dialect, records, questions);
    console.log(`\n${table(`${dialect}: loaded in ${(result.loadMs / 1000).toFixed(1)} s`, result.figures)}`);
    if (args.misses) console.log(`\nnot within ${args.misses} (${result.misses.length}):\n${result.misses.join('\n')}`);
    out[dialect] = result;
  }
  if (args.json) fs.writeFileSync(args.json, `${JSON.stringify(out, null, 2)}\n`);
}

await main();
