import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import type { Dialect } from '../src/db/types.js';
import { startContainerWorker, type WebhookWorker, type WorkerOptions } from '../src/webhook-delivery/start.js';
import { personalWorkspaceId } from '../src/lib/workspace-ids.js';

/** SQLite always; PostgreSQL too when TEST_POSTGRES_URL names a server (CI sets it). */
export function dialects(): Dialect[] {
  return process.env.TEST_POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A fresh, empty PostgreSQL database per server under test; dropped on close. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_POSTGRES_URL!;
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: string;
}

/** One JSON request against a running server; non-JSON answers come back as text. */
export async function request<T = any>(baseUrl: string, method: string, urlPath: string, o: RequestOptions = {}): Promise<Res<T>> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* non-JSON bodies stay text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export interface TestServer {
  url: string;
  dialect: Dialect;
  c: Container;
  /** The webhook delivery worker, when started with `worker`. */
  worker?: WebhookWorker;
  app: FastifyInstance;
  dataDir: string;
  /** A new account on `plan` with its first key, and its personal workspace. */
  user(plan?: 'free' | 'pro' | 'business'): Promise<{ userId: string; key: string; personalWorkspace: string }>;
  req<T = any>(method: string, urlPath: string, opts?: RequestOptions): Promise<Res<T>>;
  /** Outbox rows in order, optionally for one event name. */
  events(event?: string): Promise<{ event: string; workspace_id: string; data: any }[]>;
  close(): Promise<void>;
}

export async function startServer(dialect: Dialect, opts: { env?: Record<string, string>; clock?: Clock; dataDir?: string; databaseUrl?: string; worker?: boolean | WorkerOptions } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-test-'));
  const pgDb = dialect === 'postgres' && !opts.databaseUrl ? await createPgDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_OWNER: '0',
    // Many test files send dozens of bad keys from 127.0.0.1 within a minute; the failed-auth limit
    // (20 in production) is tested on its own in test/api/rate-limit.test.ts, which sets it back.
    AUTH_FAILURE_LIMIT: '1000',
    ...(dialect === 'postgres' ? { DATABASE_URL: opts.databaseUrl ?? pgDb!.url } : {}),
    ...opts.env,
  });
  const c = await createContainer(config, { clock: opts.clock });
  const app = await buildApp(c, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const worker = opts.worker ? await startContainerWorker(c, opts.worker === true ? {} : opts.worker) : undefined;
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const server: TestServer = {
    url,
    dialect,
    c,
    app,
    dataDir,
    async user(plan = 'pro') {
      const r = await c.accounts.create({ name: `user-${randomBytes(3).toString('hex')}`, plan });
      return { userId: r.user_id, key: r.api_key, personalWorkspace: personalWorkspaceId(r.user_id) };
    },
    req: (method, urlPath, o) => request(url, method, urlPath, o),
    async events(event) {
      let q = c.db.selectFrom('outbox').select(['event', 'workspace_id', 'data']).orderBy('id');
      if (event) q = q.where('event', '=', event);
      return (await q.execute()).map((r) => ({ ...r, data: JSON.parse(r.data) }));
    },
    worker,
    async close() {
      await worker?.stop();
      await app.close();
      await c.close();
      await pgDb?.drop();
    },
  };
  return server;
}

/** Asserts an error body: `{success:false, error, code}` with the status, and the message mentioning `mentions`. */
export function assertError(res: Res, status: number, code: string, mentions?: RegExp | string) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.success, false);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.error, 'string');
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'success']);
  if (mentions) assert.match(res.body.error, typeof mentions === 'string' ? new RegExp(mentions, 'i') : mentions);
}

/**
 * The security matrix for a route that takes an id: no key and a bad key are
 * 401, another account's id is 403, an unknown id is 404.
 */
export async function assertIdRouteSecurity(s: TestServer, route: { method: string; path: (id: string) => string; body?: unknown }, owner: { key: string }, existingId: string, unknownId: string) {
  const other = await s.user('business');
  assertError(await s.req(route.method, route.path(existingId), { body: route.body }), 401, 'unauthorized');
  assertError(await s.req(route.method, route.path(existingId), { key: `sk_${'x'.repeat(43)}`, body: route.body }), 401, 'unauthorized');
  assertError(await s.req(route.method, route.path(existingId), { key: other.key, body: route.body }), 403, 'forbidden');
  assertError(await s.req(route.method, route.path(unknownId), { key: owner.key, body: route.body }), 404, 'not_found');
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A call that must answer 200: returns the body, or fails naming the call and what came back. */
export async function expect200(s: Pick<TestServer, 'req'>, key: string, method: string, urlPath: string, body?: unknown, headers?: Record<string, string>) {
  const r = await s.req(method, urlPath, { key, body, headers });
  assert.ok(r.status === 200, `${method} ${urlPath}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
