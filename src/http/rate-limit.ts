import type { IncomingMessage } from 'node:http';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { PLAN_LIMITS, type Plan } from '../lib/plans.js';
import type { Metrics } from '../ops/metrics.js';
import type { RedisHandle } from '../ops/redis.js';
import { MemoryWindowStore } from './rate-limit-memory-store.js';

export const WINDOW_MS = 60_000;

/** The outcome of counting a request against its account's plan: the RateLimit-* headers, and the 429 when over the limit. */
export interface AccountCount {
  headers: Record<string, number>;
  refusal?: AppError;
}

export interface RateLimits {
  /**
   * Counts one request of the account against its plan's limit, once per request however often it
   * is asked (a hot route that hands its request to Fastify has counted it already). Fails closed:
   * when it cannot count (a plan without a limit, any error but the Redis store's) the promise
   * rejects and the request is refused; only an unreachable Redis lets requests through uncounted,
   * as docs/scale-out.md says.
   */
  countRequest(req: IncomingMessage, account: { userId: string; plan: Plan }): Promise<AccountCount>;
  /** Counts one failed authentication of the client address; throws 429 (instead of the 401) over the limit. */
  authFailure(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Without counting: throws 429 when the client address has used up its failed-auth allowance (checked before a key lookup). */
  refuseBlockedAddress(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts one read through a share link (no key) of the client address; throws 429 over SHARED_READ_LIMIT. */
  sharedRead(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerRateLimits; requireApiKey applies it to every scope it protects. */
    rateLimits?: RateLimits;
  }
}

type Checked = { isAllowed: true } | { isAllowed: false; max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean };
type Check<T> = (subject: T, opts?: { increment: boolean }) => Promise<Checked>;
/** What @fastify/rate-limit reads of what it counts, besides what our key and max functions read: a route config (for a group id; none here). */
type Counted = { readonly routeOptions: { readonly config?: unknown } };
type AccountSubject = Counted & { userId: string; max: number };

interface Deps {
  config: Pick<Config, 'rateLimitDisabled' | 'redisKeyPrefix' | 'authFailureLimit' | 'sharedReadLimit'>;
  redis?: RedisHandle;
  metrics: Metrics;
}

/**
 * Two fixed one-minute windows built on @fastify/rate-limit: per account (the
 * plan read from the database on this very request, so a plan change counts at
 * once) and per client address for failed authentication. With Redis the
 * counters are shared by every process; without it they live in this process.
 * A Redis error lets the request through uncounted (fail open); any other failure to count refuses it.
 */
export async function registerRateLimits(app: FastifyInstance, deps: Deps): Promise<RateLimits> {
  const { config, redis, metrics } = deps;
  if (config.rateLimitDisabled) {
    app.log.warn('RATE_LIMIT_DISABLED is set: plan rate limits are off (for benchmarks only)');
  }

  const accountCheck = await limiter<AccountSubject>(app, {
    nameSpace: `${config.redisKeyPrefix}rl:acct:`,
    redis,
    max: (s) => s.max,
    keyGenerator: (s) => s.userId,
  });
  const failureCheck = await limiter<FastifyRequest>(app, {
    nameSpace: `${config.redisKeyPrefix}rl:authfail:`,
    redis,
    max: () => config.authFailureLimit,
    keyGenerator: (req) => normalizeIP(req.ip),
  });
  const sharedReadCheck = await limiter<FastifyRequest>(app, {
    nameSpace: `${config.redisKeyPrefix}rl:shared:`,
    redis,
    max: () => config.sharedReadLimit,
    keyGenerator: (req) => normalizeIP(req.ip),
  });

  /** Counts one request; returns the seconds to wait when over the limit. */
  async function count<T>(check: Check<T>, subject: T, headers: AccountCount['headers'], fallbackMax: number) {
    let r: Checked;
    try {
      r = await check(subject);
    } catch (err) {
      // The memory store cannot fail: an error there is a bug, and the request is refused (fail closed).
      if (!redis) throw err;
      // Redis unreachable: fail open; the state is logged once by openRedis and shown in /readyz.
      metrics.rateLimitStoreErrors.inc();
      Object.assign(headers, { 'ratelimit-limit': fallbackMax, 'ratelimit-remaining': fallbackMax, 'ratelimit-reset': WINDOW_MS / 1000 });
      return undefined;
    }
    if (r.isAllowed) return undefined;
    const reset = Math.max(1, r.ttlInSeconds);
    Object.assign(headers, { 'ratelimit-limit': r.max, 'ratelimit-remaining': r.remaining, 'ratelimit-reset': reset });
    return r.isExceeded ? reset : undefined;
  }

  async function countAccount(account: { userId: string; plan: Plan }): Promise<AccountCount> {
    const headers: AccountCount['headers'] = {};
    if (config.rateLimitDisabled) return { headers };
    const { userId, plan } = account;
    const max = Object.hasOwn(PLAN_LIMITS, plan) ? PLAN_LIMITS[plan] : undefined;
    if (!userId || max === undefined) {
      throw new AppError('unavailable', `No rate limit is known for the plan '${plan}' of this account, so its requests are refused rather than served unlimited`);
    }
    const retryAfter = await count(accountCheck, { userId, max, routeOptions: {} }, headers, max);
    if (retryAfter === undefined) return { headers };
    metrics.rateLimitRejections.inc({ kind: 'plan' });
    const refusal = new AppError('rate_limited', `Rate limit exceeded: the ${plan} plan allows ${max} requests per minute for the account; retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
    return { headers, refusal };
  }
  const counts = new WeakMap<IncomingMessage, Promise<AccountCount>>();

  const tooManyFailures = (retryAfter: number) => {
    metrics.rateLimitRejections.inc({ kind: 'auth_failure' });
    return new AppError('rate_limited', `Too many failed authentications from this address (${config.authFailureLimit} per minute); retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
  };
  const tooManySharedReads = (retryAfter: number) => {
    metrics.rateLimitRejections.inc({ kind: 'shared_read' });
    return new AppError('rate_limited', `Too many reads through share links from this address (${config.sharedReadLimit} per minute); retry in ${retryAfter} s`, {
      'retry-after': String(retryAfter),
    });
  };

  /** Counts one request of the client address on `check`; its RateLimit headers go on the reply, `refusal` is thrown over the limit. */
  async function countAddress(check: Check<FastifyRequest>, max: number, refusal: (retryAfter: number) => AppError, req: FastifyRequest, reply: FastifyReply) {
    const headers: AccountCount['headers'] = {};
    const retryAfter = await count(check, req, headers, max);
    reply.headers(headers);
    if (retryAfter !== undefined) throw refusal(retryAfter);
  }

  const limits: RateLimits = {
    countRequest(req, account) {
      let counted = counts.get(req);
      if (!counted) counts.set(req, (counted = countAccount(account)));
      return counted;
    },
    authFailure: (req, reply) => countAddress(failureCheck, config.authFailureLimit, tooManyFailures, req, reply),
    async refuseBlockedAddress(req, reply) {
      let r: Checked;
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
    async sharedRead(req, reply) {
      if (!config.rateLimitDisabled) await countAddress(sharedReadCheck, config.sharedReadLimit, tooManySharedReads, req, reply);
    },
  };
  app.decorate('rateLimits', limits);
  return limits;
}

/**
 * One plugin instance per counter, each in its own scope so the key namespaces stay apart. The
 * plugin is typed for requests; it reads of them only what `max` and `keyGenerator` read, and
 * routeOptions.config (Counted), so the account counter is given its own small subject instead.
 */
async function limiter<T extends Counted>(app: FastifyInstance, o: { nameSpace: string; redis?: RedisHandle; max: (s: T) => number; keyGenerator: (s: T) => string }): Promise<Check<T>> {
  let check: Check<T> | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifyRateLimit, {
      global: false,
      timeWindow: WINDOW_MS,
      max: (req) => o.max(req as unknown as T),
      keyGenerator: (req) => o.keyGenerator(req as unknown as T),
      skipOnError: false,
      ...(o.redis ? { redis: o.redis.client, nameSpace: o.nameSpace } : { store: MemoryWindowStore }),
    });
    check = scope.createRateLimit() as unknown as Check<T>;
  });
  return check!;
}
