import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { clearDiskFull, lastDiskFull } from '../db/db-errors.js';
import { sqliteReaders } from '../db/sqlite/sqlite-readers.js';
import type { Db } from '../db/types.js';
import type { RedisHandle } from '../ops/redis.js';
import pkg from '../../package.json' with { type: 'json' };

const CHECK_TIMEOUT_MS = 2000;

type Check = 'ok' | 'down' | 'full' | 'not_configured';

/** SQLite: after a disk-full write, the file system must have this much free again before /readyz says ready. */
const FREE_TO_RESUME_BYTES = 8 * 1024 * 1024;
/** PostgreSQL's free space cannot be seen from here: a disk-full write keeps /readyz not ready this long. */
const FULL_HOLD_MS = 10_000;

/**
 * GET /healthz: the process answers, and which release it runs (package.json's version), so an
 * operator can tell an upgrade took (docs/operations.md).
 *
 * GET /readyz: can this process serve? The database must answer `select 1`
 * (else 503: a load balancer should send traffic elsewhere). Redis down is
 * reported as "degraded" with 200, because every process shares the same
 * Redis: failing readiness would take the whole fleet out while requests can
 * still be served without shared counters (fail open). After a write failed for a full disk
 * (src/db/db-errors.ts) it is 503 too, `database: "full"`, until space is back: on SQLite until the
 * data directory's file system has FREE_TO_RESUME_BYTES free, on PostgreSQL FULL_HOLD_MS after the
 * last such failure (writes in between answer 507 again and extend it). During a SIGTERM drain
 * Fastify answers 503 to new requests, this one included.
 */
export function registerHealth(app: FastifyInstance, deps: { db: Db; redis?: RedisHandle }): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ success: true, status: 'ok', version: pkg.version }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const [database, redis] = await Promise.all([checkDatabase(deps.db), checkRedis(deps.redis)]);
    const checks = { database, redis };
    if (database !== 'ok') {
      const full = lastDiskFull();
      return reply.code(503).send({
        success: false,
        error: database === 'full' && full ? `Not ready: the database's disk is full (${full.cause}); writes fail with 507 until space is freed` : 'Not ready: the database does not answer',
        code: 'unavailable',
        status: 'not_ready',
        checks,
      });
    }
    return { success: true, status: redis === 'down' ? 'degraded' : 'ready', checks };
  });
}

async function checkDatabase(db: Db): Promise<Check> {
  try {
    await withTimeout(sql`select 1`.execute(db));
  } catch {
    return 'down';
  }
  const full = lastDiskFull();
  if (!full) return 'ok';
  try {
    const file = sqliteReaders(db)?.file;
    const back = file ? (await freeBytes(path.dirname(file))) >= FREE_TO_RESUME_BYTES : Date.now() - full.at >= FULL_HOLD_MS;
    if (!back) return 'full';
    clearDiskFull();
    return 'ok';
  } catch {
    return 'full';
  }
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

async function checkRedis(redis?: RedisHandle): Promise<Check> {
  if (!redis) return 'not_configured';
  return (await redis.ping(CHECK_TIMEOUT_MS)) ? 'ok' : 'down';
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
