/**
 * The raw floor: node:http + better-sqlite3 with prepared statements and a
 * Map lookup for auth, serving the same rows and the same JSON bodies as
 * GET /v1/sheets/{id} and GET /v1/sheets?limit=N (total included, from
 * sheet_counts as the service reads it), and
 * POST /v1/sheets as one plain INSERT (its own file, a table without
 * indexes beyond the key, no search index, no revision, no event). No
 * framework, no validation, no logging: what the hardware and the database
 * allow. Run as a child process by bench/run.ts.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import SQLite from 'better-sqlite3';

const db = new SQLite(path.join(process.env.FLOOR_DATA_DIR ?? '', 'sheet-workspace.db'), { readonly: true });
db.pragma('journal_mode = WAL');
// Same settings as the service's connection (src/db/index.ts).
const writes = new SQLite(path.join(process.env.FLOOR_DATA_DIR ?? '', 'floor-writes.db'));
writes.pragma('journal_mode = WAL');
writes.pragma('synchronous = NORMAL');
writes.exec('create table if not exists sheets (id text primary key, workspace_id text, user_id text, title text, content text, folder text, tags text, created_at text, updated_at text)');
const insert = writes.prepare('insert into sheets (id, workspace_id, user_id, title, content, folder, tags, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
const floorUser = process.env.FLOOR_USER_ID ?? '';
// The key's account and its personal workspace (src/lib/workspace-ids.ts), where its sheets are.
const keys = new Map([[`Bearer ${process.env.FLOOR_API_KEY}`, { userId: floorUser, workspaceId: `wsp_${floorUser.slice(4)}` }]]);

const byId = db.prepare('select * from sheets where id = ?');
const page = db.prepare('select * from sheets where workspace_id = ? and trashed_at is null order by id desc limit ? offset ?');
// The total as the service reads it: the counts triggers keep (migration 021), a few rows, not a count of every row.
const count = db.prepare('select coalesce(sum(n), 0) as n from sheet_counts where workspace_id = ? and trashed = 0');

type Row = { id: string; workspace_id: string; title: string; content: string; folder: string | null; tags: string; created_at: string; updated_at: string; trashed_at: string | null; version: number };
const view = (r: Row) => ({
  id: r.id,
  title: r.title,
  content: JSON.parse(r.content),
  folder: r.folder,
  tags: JSON.parse(r.tags),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  trashedAt: r.trashed_at,
  version: r.version,
  workspace_id: r.workspace_id,
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
    const caller = keys.get(req.headers.authorization ?? '');
    if (!caller) return send(res, 401, { success: false, error: 'Unknown API key', code: 'unauthorized' });
    if (req.method === 'POST' && url === '/v1/sheets') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string; content?: Record<string, string>; folder?: string; tags?: string[] };
        const now = new Date().toISOString();
        const row = { id: `sht_${randomUUID()}`, title: input.title, content: input.content ?? {}, folder: input.folder ?? null, tags: input.tags ?? [] };
        insert.run(row.id, caller.workspaceId, caller.userId, row.title, JSON.stringify(row.content), row.folder, JSON.stringify(row.tags), now, now);
        send(res, 201, { success: true, id: row.id, sheet: { ...row, createdAt: now, updatedAt: now, trashedAt: null, version: 1 } });
      });
      return;
    }
    if (url.startsWith('/v1/sheets/')) {
      const row = byId.get(url.slice('/v1/sheets/'.length)) as Row | undefined;
      if (!row) return send(res, 404, { success: false, error: 'not found', code: 'not_found' });
      if (row.workspace_id !== caller.workspaceId) return send(res, 403, { success: false, error: 'forbidden', code: 'forbidden' });
      return send(res, 200, { success: true, sheet: view(row) });
    }
    if (url.startsWith('/v1/sheets')) {
      const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
      const limit = Math.min(Number(q.get('limit') ?? 50), 100);
      const rows = page.all(caller.workspaceId, limit, Number(q.get('offset') ?? 0)) as Row[];
      const { n } = count.get(caller.workspaceId) as { n: number };
      return send(res, 200, { success: true, sheets: rows.map(view), total: n });
    }
    send(res, 404, { success: false, error: 'no route', code: 'not_found' });
  })
  .listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
