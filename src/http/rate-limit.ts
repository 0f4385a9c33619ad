import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { PLAN_LIMITS } from '../modules/accounts/plans.js';
import type { Metrics } from '../ops/metrics.js';
import type { RedisHandle } from '../ops/redis.js';

export const WINDOW_MS = 60_000;

export interface RateLimits {
  /** Counts one request of req.auth's account; sets the RateLimit-* headers; throws 429 over the plan's limit. */
  account(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts one failed authentication of the client address; throws 429 (instead of the 401) over the limit. */
  authFailure(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Without counting: throws 429 when the client address has used up its failed-auth allowance (checked before a key lookup). */
  refuseBlockedAddress(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerRateLimits; requireApiKey applies it to every scope it protects. */
    rateLimits?: RateLimits;
  }
}

type Check = (req: FastifyRequest, opts?: { increment: boolean }) => Promise<{ isAllowed: true } | { isAllowed: false; max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean }>;

interface Deps {
  config: Pick<Config, 'rateLimitDisabled' | 'redisKeyPrefix' | 'authFailureLimit'>;
  redis?: RedisHandle;
  metrics: Metrics;
}

/**
 * Two fixed one-minute windows built on @fastify/rate-limit: per account (the
 * plan read from the database on this very request, so a plan change counts at
 * once) and per client address for failed authentication. With Redis the
 * counters are shared by every process; without it they live in this process.
 * A Redis error lets the request through uncounted (fail open).
 */
export async function registerRateLimits(app: FastifyInstance, deps: Deps): Promise<RateLimits> {
  const { config, redis, metrics } = deps;
  if (config.rateLimitDisabled) {
    app.log.warn('RATE_LIMIT_DISABLED is set: plan rate limits are off (for benchmarks only)');
  }

  const accountCheck = await limiter(app, {
    nameSpace: `${config.redisKeyPrefix}rl:acct:`,
    redis,
    max: (req) => PLAN_LIMITS[req.auth.plan],
    keyGenerator: (req) => req.auth.userId,
  });
  const failureCheck = await limiter(app, {
    nameSpace: `${config.redisKeyPrefix}rl:authfail:`,
    redis,
    max: () => config.authFailureLimit,
    keyGenerator: (req) => normalizeIP(req.ip),
  });

  async function count(check: Check, req: FastifyRequest, reply: FastifyReply, fallbackMax: number) {
    try {
      const r = await check(req);
      if (r.isAllowed) return undefined;
      const reset = Math.max(1, r.ttlInSeconds);
      reply.header('ratelimit-limit', r.max).header('ratelimit-remaining', r.remaining).header('ratelimit-reset', reset);
      return r.isExceeded ? reset : undefined;
    } catch {
      // Redis unreachable: fail open; the state is logged once by openRedis and shown in /readyz.
      metrics.rateLimitStoreErrors.inc();
      reply.header('ratelimit-limit', fallbackMax).header('ratelimit-remaining', fallbackMax).header('ratelimit-reset', WINDOW_MS / 1000);
      return undefined;
    }
  }

  const tooManyFailures = (retryAfter: number) => {
    metrics.rateLimitRejections.inc({ kind: 'auth_failure' });
    return new AppError(
      'rate_limited',
      `Too many failed authentications from this address (${config.authFailureLimit} per minute); retry in ${retryAfter} s`,
      { 'retry-after': String(retryAfter) },
    );
  };

  const limits: RateLimits = {
    async account(req, reply) {
      if (config.rateLimitDisabled) return;
      const plan = req.auth.plan;
      const retryAfter = await count(accountCheck, req, reply, PLAN_LIMITS[plan]);
      if (retryAfter === undefined) return;
      metrics.rateLimitRejections.inc({ kind: 'plan' });
      throw new AppError(
        'rate_limited',
        `Rate limit exceeded: the ${plan} plan allows ${PLAN_LIMITS[plan]} requests per minute for the account; retry in ${retryAfter} s`,
        { 'retry-after': String(retryAfter) },
      );
    },
    async authFailure(req, reply) {
      const retryAfter = await count(failureCheck, req, reply, config.authFailureLimit);
      if (retryAfter === undefined) return;
      throw tooManyFailures(retryAfter);
    },
    async refuseBlockedAddress(req, reply) {
      let r: Awaited<ReturnType<Check>>;
      try {
        r = await failureCheck(req, { increment: false });
      } catch {
        metrics.rateLimitStoreErrors.inc();
        return; // fail open, as for counting
      }
      // At the limit the next failure would be refused anyway, so the lookup is not even made.
      if (r.isAllowed || r.remaining > 0) return;
      const retryAfter = Math.max(1, r.ttlInSeconds);
      reply.header('ratelimit-limit', r.max).header('ratelimit-remaining', 0).header('ratelimit-reset', retryAfter);
      throw tooManyFailures(retryAfter);
    },
  };
  app.decorate('rateLimits', limits);
  return limits;
}

/** One plugin instance per counter, each in its own scope so the key namespaces stay apart. */
async function limiter(
  app: FastifyInstance,
  o: { nameSpace: string; redis?: RedisHandle; max: (req: FastifyRequest) => number; keyGenerator: (req: FastifyRequest) => string },
): Promise<Check> {
  let check: Check | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifyRateLimit, {
      global: false,
      timeWindow: WINDOW_MS,
      max: (req) => o.max(req),
      keyGenerator: o.keyGenerator,
      skipOnError: false,
      ...(o.redis ? { redis: o.redis.client, nameSpace: o.nameSpace } : {}),
    });
    check = scope.createRateLimit() as Check;
  });
  return check!;
}
