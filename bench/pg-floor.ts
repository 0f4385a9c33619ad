/**
 * The PostgreSQL floor: node:http + node-postgres with a pool as large as the service's
 * (src/db/index.ts), on its own database of the same cluster, a copy of the service's database as
 * seeded (bench/pg.ts cloneDatabase): the same rows and indexes. It answers GET /v1/sheets/{id} and
 * GET /v1/sheets?limit=N (total included) with the same JSON bodies, running only the statements the
 * service's answers need at minimum: the row by key; the page by the list index and the account's
 * count from sheet_counts (migration 021), both at once as the service does. POST /v1/sheets is one
 * plain INSERT into a table with only its key (no search text, token index, revision, count or
 * event). Named prepared statements, a Map lookup for auth, no framework, no validation, no logging.
 * Run as a child process by bench/run.ts when the bench runs on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

/** The service's pool size (src/db/index.ts, `max: 10`); the bench passes it in. */
const POOL_SIZE = Number(process.env.FLOOR_POOL_SIZE ?? 10);
const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: POOL_SIZE, options: '-c jit=off' });
pool.on('error', () => {});
await pool.query('create table if not exists floor_sheets (id text primary key, workspace_id text, user_id text, title text, content text, folder text, tags text, created_at text, updated_at text)');
const floorUser = process.env.FLOOR_USER_ID ?? '';
// The key's account and its personal workspace (src/lib/workspace-ids.ts), where its sheets are.
const keys = new Map([[`Bearer ${process.env.FLOOR_API_KEY}`, { userId: floorUser, workspaceId: `wsp_${floorUser.slice(4)}` }]]);

const COLUMNS = 'id, workspace_id, title, content, folder, tags, created_at, updated_at, trashed_at, version';
const byId = (id: string) => ({ name: 'by_id', text: `select ${COLUMNS} from sheets where id = $1`, values: [id] });
const page = (workspaceId: string, limit: number, offset: number) => ({
  name: 'page',
  text: `select ${COLUMNS} from sheets where workspace_id = $1 and trashed_at is null order by id desc limit $2 offset $3`,
  values: [workspaceId, limit, offset],
});
const count = (workspaceId: string) => ({ name: 'count', text: 'select coalesce(sum(n), 0) as n from sheet_counts where workspace_id = $1 and trashed = 0', values: [workspaceId] });
const insert = (v: unknown[]) => ({
  name: 'insert',
  text: 'insert into floor_sheets (id, workspace_id, user_id, title, content, folder, tags, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
  values: v,
});

type Row = { id: string; workspace_id: string; title: string; content: string; folder: string | null; tags: string; created_at: string; updated_at: string; trashed_at: string | null; version: number };
/** The stored JSON texts go in as they are, as the service's sheetJson does. */
const view = (r: Row) =>
  `{"id":${JSON.stringify(r.id)},"title":${JSON.stringify(r.title)},"content":${r.content},"folder":${JSON.stringify(r.folder)},"tags":${r.tags},` +
  `"createdAt":${JSON.stringify(r.created_at)},"updatedAt":${JSON.stringify(r.updated_at)},"trashedAt":${JSON.stringify(r.trashed_at)},"version":${r.version},` +
  `"workspace_id":${JSON.stringify(r.workspace_id)}}`;

function send(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
const fail = (res: http.ServerResponse) => (err: Error) => send(res, 500, JSON.stringify({ success: false, error: err.message, code: 'internal' }));

http
  .createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/healthz') return send(res, 200, '{"success":true,"status":"ok"}');
    const caller = keys.get(req.headers.authorization ?? '');
    if (!caller) return send(res, 401, '{"success":false,"error":"Unknown API key","code":"unauthorized"}');
    if (req.method === 'POST' && url === '/v1/sheets') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string; content?: Record<string, string>; folder?: string; tags?: string[] };
        const now = new Date().toISOString();
        const row = { id: `sht_${randomUUID()}`, title: input.title, content: input.content ?? {}, folder: input.folder ?? null, tags: input.tags ?? [] };
        pool
          .query(insert([row.id, caller.workspaceId, caller.userId, row.title, JSON.stringify(row.content), row.folder, JSON.stringify(row.tags), now, now]))
          .then(() => send(res, 201, JSON.stringify({ success: true, id: row.id, sheet: { ...row, createdAt: now, updatedAt: now, trashedAt: null, version: 1 } })), fail(res));
      });
      return;
    }
    if (url.startsWith('/v1/sheets/')) {
      pool.query<Row>(byId(url.slice('/v1/sheets/'.length))).then(({ rows: [row] }) => {
        if (!row) return send(res, 404, '{"success":false,"error":"not found","code":"not_found"}');
        if (row.workspace_id !== caller.workspaceId) return send(res, 403, '{"success":false,"error":"forbidden","code":"forbidden"}');
        send(res, 200, `{"success":true,"sheet":${view(row)}}`);
      }, fail(res));
      return;
    }
    if (url.startsWith('/v1/sheets')) {
      const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
      const limit = Math.min(Number(q.get('limit') ?? 50), 100);
      Promise.all([pool.query<Row>(page(caller.workspaceId, limit, Number(q.get('offset') ?? 0))), pool.query<{ n: string }>(count(caller.workspaceId))]).then(
        ([
          { rows },
          {
            rows: [{ n }],
          },
        ]) => send(res, 200, `{"success":true,"sheets":[${rows.map(view).join(',')}],"total":${Number(n)}}`),
        fail(res),
      );
      return;
    }
    send(res, 404, '{"success":false,"error":"no route","code":"not_found"}');
  })
  .listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
