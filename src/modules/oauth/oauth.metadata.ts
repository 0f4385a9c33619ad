import type { Clock } from '../../clock.js';
import type { GuardedClient } from '../../webhook-delivery/guarded-client.js';
import { OAuthError } from './oauth.errors.js';

/** Client ID metadata documents: how much we read and how long we wait. */
export const DOCUMENT_LIMIT_BYTES = 5 * 1024;
export const DOCUMENT_TIMEOUT_MS = 5_000;
/** A failed fetch is answered from memory this long, so repeating the request does not fetch again. */
export const FAILURE_CACHE_MS = 10 * 60_000;
/** Outbound fetches one client address may cause per window (in this process). */
export const FETCHES_PER_ADDRESS = 20;
export const FETCH_WINDOW_MS = 3600_000;
/** Bounds on the in-memory maps (failures, addresses); the oldest entries go first. */
const MAX_ENTRIES = 10_000;

/**
 * One text for every way a fetch can fail (status, unreachable, timeout, size, not JSON, another
 * client_id): telling them apart would let anyone probe hosts through this server.
 */
export const documentUnusable = (url: string) =>
  new OAuthError(
    'invalid_client',
    `The client ID metadata document at ${url} could not be used: it must answer HTTP 200 over https with JSON of at most ${DOCUMENT_LIMIT_BYTES} bytes whose client_id is this URL`,
  );

const setBounded = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
};

/**
 * Fetches a document (JSON whose client_id is its own URL) and reads it with `read` (which may store
 * it), at most once at a time per URL (parallel callers share the fetch and the read), remembering the
 * outcome in memory: a success for `successMs`, a failure (of the fetch or of `read`) for
 * FAILURE_CACHE_MS. At most FETCHES_PER_ADDRESS fetches start per client address per hour.
 */
export function createMetadataFetcher<T>(deps: { client: GuardedClient; clock: Clock; successMs: number; read: (url: string, doc: Record<string, unknown>) => T | Promise<T> }) {
  const { client, clock, read } = deps;
  const outcomes = new Map<string, { value?: T; error?: OAuthError; until: number }>();
  const inFlight = new Map<string, Promise<T>>();
  const perAddress = new Map<string, { count: number; resetAt: number }>();

  function countFetch(address: string | undefined, now: number) {
    if (address === undefined) return;
    const seen = perAddress.get(address);
    const window = seen && seen.resetAt > now ? seen : { count: 0, resetAt: now + FETCH_WINDOW_MS };
    if (window.count >= FETCHES_PER_ADDRESS) {
      const wait = Math.ceil((window.resetAt - now) / 1000);
      throw new OAuthError('temporarily_unavailable', `Too many client ID metadata documents fetched for this address; retry in ${wait} s`, 429);
    }
    setBounded(perAddress, address, { ...window, count: window.count + 1 });
  }

  async function download(url: string): Promise<Record<string, unknown>> {
    let text: string;
    try {
      const res = await client.request(url, {
        signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
        headersTimeout: DOCUMENT_TIMEOUT_MS,
        bodyTimeout: DOCUMENT_TIMEOUT_MS,
        headers: { accept: 'application/json' },
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw documentUnusable(url);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > DOCUMENT_LIMIT_BYTES) {
          res.body.destroy();
          throw documentUnusable(url);
        }
        chunks.push(chunk as Buffer);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch {
      throw documentUnusable(url);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw documentUnusable(url);
    }
    if (!doc || typeof doc !== 'object' || (doc as Record<string, unknown>).client_id !== url) throw documentUnusable(url);
    return doc as Record<string, unknown>;
  }

  return {
    /** `address`: the client address that asked, counted when this call starts a fetch. */
    fetch(url: string, address?: string): Promise<T> {
      const now = clock.now().getTime();
      const known = outcomes.get(url);
      if (known && known.until > now) return known.error ? Promise.reject(known.error) : Promise.resolve(known.value as T);
      const running = inFlight.get(url);
      if (running) return running;
      try {
        countFetch(address, now);
      } catch (err) {
        return Promise.reject(err);
      }
      const started = download(url)
        .then((doc) => read(url, doc))
        .then(
          (value) => {
            setBounded(outcomes, url, { value, until: clock.now().getTime() + deps.successMs });
            return value;
          },
          (err: unknown) => {
            // What the document or its host did is remembered; our own failures (the database) are not.
            if (err instanceof OAuthError) setBounded(outcomes, url, { error: err, until: clock.now().getTime() + FAILURE_CACHE_MS });
            throw err;
          },
        )
        .finally(() => inFlight.delete(url));
      inFlight.set(url, started);
      return started;
    },
  };
}
