import type { Redis } from 'ioredis';

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisHandle {
  client: Redis;
  /** True while the connection is up; rate limiting fails open while it is false. */
  isUp(): boolean;
  /** PING with a deadline; false on any error. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

const CONNECT_WAIT_MS = 2000;

/**
 * One Redis connection per process, for the shared rate-limit counters.
 * Commands never queue while the connection is down (they fail at once, so a
 * request is not held up), and the client keeps reconnecting in the background.
 * Going down and coming back are each logged once, not once per retry.
 */
export async function openRedis(url: string, logger?: Log): Promise<RedisHandle> {
  // Loaded only when REDIS_URL is set (~100 ms and memory saved otherwise).
  const { Redis: RedisClient } = await import('ioredis');
  const client = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let up = false;
  let reportedDown = false;
  let closing = false;
  client.on('ready', () => {
    up = true;
    if (reportedDown) logger?.info({ redis: redactUrl(url) }, 'Redis is reachable again; rate-limit counters are shared again');
    reportedDown = false;
  });
  const down = (err?: Error) => {
    up = false;
    if (reportedDown || closing) return;
    reportedDown = true;
    logger?.warn({ redis: redactUrl(url), err: err?.message }, 'Redis is unreachable; serving without rate limits (fail open) until it is back');
  };
  client.on('error', (err) => down(err));
  client.on('close', () => {
    if (up) down();
  });

  // Wait briefly for the first connection so the first requests are counted;
  // if Redis is not there, start anyway (fail open) and keep retrying.
  await Promise.race([client.connect().catch(() => {}), new Promise((r) => setTimeout(r, CONNECT_WAIT_MS).unref())]);
  if (!up) down(new Error('not reachable at start'));

  return {
    client,
    isUp: () => up,
    async ping(timeoutMs = 500) {
      if (!up) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs);
        });
        return (await Promise.race([client.ping(), timeout])) === 'PONG';
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      closing = true;
      client.removeAllListeners('error');
      client.on('error', () => {});
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis';
  }
}
