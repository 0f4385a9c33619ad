/**
 * The raw floor: node:http + better-sqlite3 with prepared statements and a
 * Map lookup for auth, serving the same rows and the same JSON bodies as
 * GET /v1/sheets/{id} and GET /v1/sheets?limit=N (total included). No
 * framework, no validation, no logging: what the hardware and the database
 * allow. Run as a child process by bench/run.ts.
 */
import http from 'node:http';
import path from 'node:path';
import SQLite from 'better-sqlite3';

const db = new SQLite(path.join(process.env.FLOOR_DATA_DIR ?? '', 'sheet-workspace.db'), { readonly: true });
db.pragma('journal_mode = WAL');
const keys = new Map<string, string>([[`Bearer ${process.env.FLOOR_API_KEY}`, process.env.FLOOR_USER_ID ?? '']]);

const byId = db.prepare('select * from sheets where id = ?');
const page = db.prepare('select * from sheets where user_id = ? and trashed_at is null order by id desc limit ? offset ?');
const count = db.prepare('select count(*) as n from sheets where user_id = ? and trashed_at is null');

type Row = { id: string; title: string; content: string; folder: string | null; tags: string; created_at: string; updated_at: string; trashed_at: string | null };
const view = (r: Row) => ({
  id: r.id,
  title: r.title,
  content: JSON.parse(r.content),
  folder: r.folder,
  tags: JSON.parse(r.tags),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  trashedAt: r.trashed_at,
});

function send(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

http
  .createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/healthz') return send(res, 200, { success: true, status: 'ok' });
    const userId = keys.get(req.headers.authorization ?? '');
    if (!userId) return send(res, 401, { success: false, error: 'Unknown API key', code: 'unauthorized' });
    if (url.startsWith('/v1/sheets/')) {
      const row = byId.get(url.slice('/v1/sheets/'.length)) as (Row & { user_id: string }) | undefined;
      if (!row) return send(res, 404, { success: false, error: 'not found', code: 'not_found' });
      if (row.user_id !== userId) return send(res, 403, { success: false, error: 'forbidden', code: 'forbidden' });
      return send(res, 200, { success: true, sheet: view(row) });
    }
    if (url.startsWith('/v1/sheets')) {
      const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
      const limit = Math.min(Number(q.get('limit') ?? 50), 100);
      const rows = page.all(userId, limit, Number(q.get('offset') ?? 0)) as Row[];
      const { n } = count.get(userId) as { n: number };
      return send(res, 200, { success: true, sheets: rows.map(view), total: n });
    }
    send(res, 404, { success: false, error: 'no route', code: 'not_found' });
  })
  .listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
