import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/types.js';
import type { RedisHandle } from '../ops/redis.js';
import pkg from '../../package.json' with { type: 'json' };

const CHECK_TIMEOUT_MS = 2000;

type Check = 'ok' | 'down' | 'not_configured';

/**
 * GET /healthz: the process answers, and which release it runs (package.json's version), so an
 * operator can tell an upgrade took (docs/operations.md).
 *
 * GET /readyz: can this process serve? The database must answer `select 1`
 * (else 503: a load balancer should send traffic elsewhere). Redis down is
 * reported as "degraded" with 200, because every process shares the same
 * Redis: failing readiness would take the whole fleet out while requests can
 * still be served without shared counters (fail open). During a SIGTERM drain
 * Fastify answers 503 to new requests, this one included.
 */
export function registerHealth(app: FastifyInstance, deps: { db: Db; redis?: RedisHandle }): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ success: true, status: 'ok', version: pkg.version }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const [database, redis] = await Promise.all([checkDatabase(deps.db), checkRedis(deps.redis)]);
    const checks = { database, redis };
    if (database !== 'ok') {
      return reply.code(503).send({
        success: false,
        error: 'Not ready: the database does not answer',
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
    return 'ok';
  } catch {
    return 'down';
  }
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
