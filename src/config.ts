import { z } from 'zod';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const flag = (name: string) =>
  z
    .enum(['0', '1', 'true', 'false', ''], { error: `${name} must be 1 or 0` })
    .optional()
    .transform((v) => v === '1' || v === 'true');

const durationList = z
  .string()
  .regex(/^\s*\d+(ms|s|m|h)(\s*,\s*\d+(ms|s|m|h))*\s*$/, 'WEBHOOK_RETRY_SCHEDULE must look like "1m,5m,30m,2h,24h"')
  .transform((s) => s.split(',').map((p) => parseDuration(p.trim())));

/**
 * How long a worker holds a claimed delivery: comfortably longer than one attempt (5 s) plus recording it.
 * A shorter WEBHOOK_LEASE_MS (for tests) lets a slow attempt be claimed and sent again before it finishes.
 */
export const DEFAULT_LEASE_MS = 60_000;

const EnvSchema = z.object({
  PORT: z.coerce.number({ error: 'PORT must be a number' }).int().min(0).max(65535, 'PORT must be 0-65535').default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BOOTSTRAP_OWNER: flag('BOOTSTRAP_OWNER').default(true),
  PUBLIC_URL: z.string().url('PUBLIC_URL must be an absolute URL such as https://sheets.example.com').optional(),
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'SECRET_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
  WEBHOOK_RETRY_SCHEDULE: durationList.optional(),
  WEBHOOK_CA_FILE: z.string().min(1).optional(),
  WEBHOOK_WORKER: flag('WEBHOOK_WORKER').default(true),
  WEBHOOK_MAX_IN_FLIGHT: z.coerce
    .number({ error: 'WEBHOOK_MAX_IN_FLIGHT must be a number' })
    .int('WEBHOOK_MAX_IN_FLIGHT must be a whole number')
    .min(1, 'WEBHOOK_MAX_IN_FLIGHT must be 1-32')
    .max(32, 'WEBHOOK_MAX_IN_FLIGHT must be 1-32')
    .default(16),
  WEBHOOK_LEASE_MS: z.coerce
    .number({ error: 'WEBHOOK_LEASE_MS must be a number' })
    .int('WEBHOOK_LEASE_MS must be a whole number of milliseconds')
    .min(1000, 'WEBHOOK_LEASE_MS must be at least 1000')
    .default(DEFAULT_LEASE_MS),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
    .optional(),
  RATE_LIMIT_DISABLED: flag('RATE_LIMIT_DISABLED'),
  REDIS_KEY_PREFIX: z.string().default('sw:'),
  AUTH_FAILURE_LIMIT: z.coerce.number({ error: 'AUTH_FAILURE_LIMIT must be a number' }).int().positive().default(20),
  SHARED_READ_LIMIT: z.coerce.number({ error: 'SHARED_READ_LIMIT must be a number' }).int().positive().default(60),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number({ error: 'HTTP_HEADERS_TIMEOUT_MS must be a number' })
    .int('HTTP_HEADERS_TIMEOUT_MS must be a whole number')
    .min(100, 'HTTP_HEADERS_TIMEOUT_MS must be at least 100')
    .default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number({ error: 'HTTP_REQUEST_TIMEOUT_MS must be a number' })
    .int('HTTP_REQUEST_TIMEOUT_MS must be a whole number')
    .min(100, 'HTTP_REQUEST_TIMEOUT_MS must be at least 100')
    .default(30_000),
  TRUST_PROXY: z.string().optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  AI_PROVIDER: z.enum(['openai', 'anthropic', ''], { error: 'AI_PROVIDER must be openai or anthropic' }).optional(),
  AI_BASE_URL: z.string().url('AI_BASE_URL must be an absolute URL').optional(),
  AI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_TIMEOUT_MS: z.coerce.number({ error: 'AI_TIMEOUT_MS must be a number' }).int().positive().default(60_000),
  DISTILL: flag('DISTILL'),
  DISTILL_DAILY_TOKENS: z.coerce.number({ error: 'DISTILL_DAILY_TOKENS must be a number' }).int('DISTILL_DAILY_TOKENS must be a whole number').min(0, 'DISTILL_DAILY_TOKENS must be 0 or more').default(200_000),
  DISTILL_DEBOUNCE_MS: z.coerce.number({ error: 'DISTILL_DEBOUNCE_MS must be a number' }).int('DISTILL_DEBOUNCE_MS must be a whole number').min(0, 'DISTILL_DEBOUNCE_MS must be 0 or more').default(30_000),
  MCP_RESULT_MAX_CHARS: z.coerce
    .number({ error: 'MCP_RESULT_MAX_CHARS must be a number' })
    .int('MCP_RESULT_MAX_CHARS must be a whole number')
    .min(5000, 'MCP_RESULT_MAX_CHARS must be at least 5000')
    .default(25_000),
  SEARCH_RANK_MAX_MATCHES: z.coerce
    .number({ error: 'SEARCH_RANK_MAX_MATCHES must be a number' })
    .int('SEARCH_RANK_MAX_MATCHES must be a whole number')
    .min(0, 'SEARCH_RANK_MAX_MATCHES must be 0 or more')
    .default(10_000),
  SEARCH_CONCURRENCY: z.coerce
    .number({ error: 'SEARCH_CONCURRENCY must be a number' })
    .int('SEARCH_CONCURRENCY must be a whole number')
    .min(1, 'SEARCH_CONCURRENCY must be at least 1')
    .max(64, 'SEARCH_CONCURRENCY must be at most 64')
    .optional(),
  EMBEDDINGS_URL: z
    .string()
    .url('EMBEDDINGS_URL must be an absolute URL such as http://127.0.0.1:11434/v1')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  EMBEDDINGS_MODEL: z.string().optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MAX_VECTORS: z.coerce
    .number({ error: 'EMBEDDINGS_MAX_VECTORS must be a number' })
    .int('EMBEDDINGS_MAX_VECTORS must be a whole number')
    .min(100, 'EMBEDDINGS_MAX_VECTORS must be 100-1000000')
    .max(1_000_000, 'EMBEDDINGS_MAX_VECTORS must be 100-1000000')
    .default(20_000),
  EMBEDDINGS_DIMENSIONS: z.coerce
    .number({ error: 'EMBEDDINGS_DIMENSIONS must be a number' })
    .int('EMBEDDINGS_DIMENSIONS must be a whole number')
    .min(1, 'EMBEDDINGS_DIMENSIONS must be 1-8192')
    .max(8192, 'EMBEDDINGS_DIMENSIONS must be 1-8192')
    .optional(),
  REVISIONS_KEEP: z.coerce.number({ error: 'REVISIONS_KEEP must be a number' }).int('REVISIONS_KEEP must be a whole number').min(1, 'REVISIONS_KEEP must be at least 1').default(100),
  EVENT_STREAM_POLL_MS: z.coerce
    .number({ error: 'EVENT_STREAM_POLL_MS must be a number' })
    .int('EVENT_STREAM_POLL_MS must be a whole number')
    .min(100, 'EVENT_STREAM_POLL_MS must be at least 100')
    .default(1000),
  EVENT_STREAM_HEARTBEAT_MS: z.coerce
    .number({ error: 'EVENT_STREAM_HEARTBEAT_MS must be a number' })
    .int('EVENT_STREAM_HEARTBEAT_MS must be a whole number')
    .min(100, 'EVENT_STREAM_HEARTBEAT_MS must be at least 100')
    .default(15_000),
  EVENT_STREAM_MAX_PER_CREDENTIAL: z.coerce
    .number({ error: 'EVENT_STREAM_MAX_PER_CREDENTIAL must be a number' })
    .int('EVENT_STREAM_MAX_PER_CREDENTIAL must be a whole number')
    .min(1, 'EVENT_STREAM_MAX_PER_CREDENTIAL must be at least 1')
    .default(10),
  EVENT_STREAM_MAX_PER_ADDRESS: z.coerce
    .number({ error: 'EVENT_STREAM_MAX_PER_ADDRESS must be a number' })
    .int('EVENT_STREAM_MAX_PER_ADDRESS must be a whole number')
    .min(1, 'EVENT_STREAM_MAX_PER_ADDRESS must be at least 1')
    .default(50),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bootstrapOwner: boolean;
  publicUrl?: string;
  secretKey?: string;
  webhooks: {
    allowPrivateTargets: boolean;
    retrySchedule: number[];
    worker: boolean;
    caFile?: string;
    /** Deliveries in flight at once per webhook and worker process (of the worker's 64). */
    maxInFlight: number;
    /** How long a claimed delivery stays with its worker; a dead worker's deliveries are retried after it. */
    leaseMs: number;
  };
  redisUrl?: string;
  rateLimitDisabled: boolean;
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Failed authentications allowed per client address per minute. */
  authFailureLimit: number;
  /** Reads through share links (no key) per client address per minute. */
  sharedReadLimit: number;
  /** How long a client may take to send a request's headers, and the whole request (headers <= request); responses are not bounded. */
  httpTimeouts: { headersMs: number; requestMs: number };
  /** Fastify trustProxy: behind a load balancer, the client address comes from X-Forwarded-For. */
  trustProxy: boolean | string;
  /** Bearer token GET /metrics requires; without it only loopback clients may read /metrics. */
  metricsToken?: string;
  ai: { provider?: 'openai' | 'anthropic'; baseUrl?: string; apiKey?: string; model?: string; timeoutMs: number };
  /**
   * Optional LLM distillation of sessions (docs/distillation.md): off unless DISTILL=1, and only with an
   * AI provider. `dailyTokens`: tokens (in + out) each account may spend per UTC day; `debounceMs`: how
   * long after a session's last change it is distilled.
   */
  distill: { enabled: boolean; dailyTokens: number; debounceMs: number };
  /** The most characters any MCP tool result holds (text and structuredContent); larger ones are cut with a note. */
  mcpResultMaxChars: number;
  /**
   * Optional semantic search (docs/search.md): an OpenAI-compatible /v1/embeddings endpoint (base URL, the
   * part before /embeddings) and its model; absent unless both EMBEDDINGS_URL and EMBEDDINGS_MODEL are set.
   */
  embeddings?: { url: string; model: string; apiKey?: string; dimensions?: number; maxVectors: number };
  /** Earlier versions kept per sheet (the newest ones). */
  revisionsKeep: number;
  /**
   * A `q` search matching more of the owner's sheets than this, and more than half of them, comes newest
   * first instead of by relevance (SQLite and PostgreSQL). A word in most of 10,000 sheets still ranks in ~15 ms on SQLite; past
   * that its ranking takes longer than finding it.
   */
  searchRankMaxMatches: number;
  /** PostgreSQL searches running at once per process (SEARCH_CONCURRENCY). */
  searchConcurrency: number;
  /** How often GET /v1/events/stream sends a heartbeat comment. */
  /** The event stream's safety-net poll of the outbox; commits of this process, and of others on PostgreSQL (NOTIFY), wake it at once. */
  eventStreamPollMs: number;
  eventStreamHeartbeatMs: number;
  /** Open GET /v1/events/stream per credential and per client address, in each process; past either, 429. */
  eventStreamCaps: { perCredential: number; perAddress: number };
};

export const DEFAULT_RETRY_SCHEDULE = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000];

export class ConfigError extends Error {}

/** Parses the environment once at start; every bad value is named in one message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const provider = e.AI_PROVIDER || undefined;
  if (e.DISTILL && !provider) {
    throw new ConfigError('Invalid configuration:\n  DISTILL: distillation calls the AI provider Sparks use; set AI_PROVIDER (with AI_MODEL and its key) or unset DISTILL');
  }
  if (!!e.EMBEDDINGS_URL !== !!e.EMBEDDINGS_MODEL) {
    throw new ConfigError(`Invalid configuration:\n  ${e.EMBEDDINGS_URL ? 'EMBEDDINGS_MODEL' : 'EMBEDDINGS_URL'}: semantic search needs both EMBEDDINGS_URL and EMBEDDINGS_MODEL; set both or neither`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    bootstrapOwner: e.BOOTSTRAP_OWNER,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    secretKey: e.SECRET_KEY,
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE,
      worker: e.WEBHOOK_WORKER,
      caFile: e.WEBHOOK_CA_FILE,
      maxInFlight: e.WEBHOOK_MAX_IN_FLIGHT,
      leaseMs: e.WEBHOOK_LEASE_MS,
    },
    redisUrl: e.REDIS_URL,
    rateLimitDisabled: e.RATE_LIMIT_DISABLED,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    authFailureLimit: e.AUTH_FAILURE_LIMIT,
    sharedReadLimit: e.SHARED_READ_LIMIT,
    httpTimeouts: { headersMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS), requestMs: e.HTTP_REQUEST_TIMEOUT_MS },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    metricsToken: e.METRICS_TOKEN,
    ai: {
      provider,
      baseUrl: e.AI_BASE_URL,
      apiKey: provider === 'anthropic' ? (e.ANTHROPIC_API_KEY ?? e.AI_API_KEY) : e.AI_API_KEY,
      model: e.AI_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    distill: { enabled: e.DISTILL, dailyTokens: e.DISTILL_DAILY_TOKENS, debounceMs: e.DISTILL_DEBOUNCE_MS },
    mcpResultMaxChars: e.MCP_RESULT_MAX_CHARS,
    embeddings:
      e.EMBEDDINGS_URL && e.EMBEDDINGS_MODEL
        ? { url: e.EMBEDDINGS_URL.replace(/\/+$/, ''), model: e.EMBEDDINGS_MODEL, apiKey: e.EMBEDDINGS_API_KEY || undefined, dimensions: e.EMBEDDINGS_DIMENSIONS, maxVectors: e.EMBEDDINGS_MAX_VECTORS }
        : undefined,
    revisionsKeep: e.REVISIONS_KEEP,
    searchRankMaxMatches: e.SEARCH_RANK_MAX_MATCHES,
    // One core left to PostgreSQL's other backends and this process: on 2 cores, 1.
    searchConcurrency: e.SEARCH_CONCURRENCY ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    eventStreamPollMs: e.EVENT_STREAM_POLL_MS,
    eventStreamHeartbeatMs: e.EVENT_STREAM_HEARTBEAT_MS,
    eventStreamCaps: { perCredential: e.EVENT_STREAM_MAX_PER_CREDENTIAL, perAddress: e.EVENT_STREAM_MAX_PER_ADDRESS },
  };
}

/** "1"/"true": trust every proxy; otherwise the proxies' addresses or CIDRs, comma separated. */
function parseTrustProxy(v: string | undefined): boolean | string {
  if (!v || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  return v;
}

export function parseDuration(text: string): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(text);
  if (!m) throw new ConfigError(`bad duration ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit;
}
