import type { Dispatcher } from 'undici';
import type { GuardedClient } from './guarded-client.js';
import pkg from '../../package.json' with { type: 'json' };
import { signBody } from './signing.js';

export const USER_AGENT = `SheetWorkspace-Webhooks/${pkg.version}`;
export const DELIVERY_TIMEOUT_MS = 5_000;
const RESPONSE_KEEP_BYTES = 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KiB of the response body, as text. */
  responseBody: string | null;
}

export interface SendInput {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
}

/**
 * One POST of a delivery. Success is a 2xx inside the time limit; redirects
 * are not followed (a 3xx is a failure), and the limit covers connecting,
 * the response headers and reading the response.
 */
export async function sendDelivery(client: GuardedClient, input: SendInput, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<AttemptResult> {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  const bytes = Buffer.from(input.body, 'utf8');
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await client.request(input.url, {
      method: 'POST',
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-service-event': input.event,
        'x-service-delivery': input.deliveryId,
        'x-service-signature': signBody(input.secret, bytes),
      },
      body: bytes,
    });
    const responseBody = await readPrefix(res.body, RESPONSE_KEEP_BYTES);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      ok,
      statusCode: res.statusCode,
      durationMs: elapsed(),
      error: ok ? null : `receiver answered HTTP ${res.statusCode}`,
      responseBody,
    };
  } catch (err) {
    const message = timeout.aborted ? `no response within ${timeoutMs / 1000} s` : describeError(err);
    return { ok: false, statusCode: null, durationMs: elapsed(), error: message, responseBody: null };
  }
}

async function readPrefix(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= limit) break;
  }
  if (size >= limit) body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function describeError(err: unknown): string {
  let e = err as (Error & { code?: string; cause?: unknown }) | undefined;
  // undici wraps the socket error; the cause names DNS, connect and TLS failures best.
  while (e?.cause instanceof Error && !(e as { code?: string }).code?.startsWith('ERR_WEBHOOK')) e = e.cause as typeof e;
  if (!e) return 'unknown error';
  return e.code ? `${e.code}: ${e.message}` : e.message;
}
