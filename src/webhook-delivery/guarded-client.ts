import fs from 'node:fs';
import type { Dispatcher } from 'undici';
import type { DispatcherOptions } from './ssrf-dispatcher.js';

type RequestOptions = Omit<NonNullable<Parameters<typeof import('undici').request>[1]>, 'dispatcher'>;

/**
 * Outbound HTTP through the SSRF-guarded dispatcher (webhook deliveries, OAuth client metadata
 * documents). undici and the dispatcher load at the first request: evaluating undici is ~100 ms of
 * start-up, and most processes send nothing for a while after they start.
 */
export interface GuardedClient {
  request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData<unknown>>;
  close(): Promise<void>;
}

/** `caFile`: extra trusted CA certificates (PEM, WEBHOOK_CA_FILE), read now so a missing file fails at start. */
export function createGuardedClient(opts: Omit<DispatcherOptions, 'ca'> & { caFile?: string }): GuardedClient {
  const ca = opts.caFile ? fs.readFileSync(opts.caFile, 'utf8') : undefined;
  let loading: Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }> | undefined;
  const load = () =>
    (loading ??= Promise.all([import('undici'), import('./ssrf-dispatcher.js')]).then(([undici, ssrf]) => ({
      // `default`: a bundle (build/) exposes a lazily imported CommonJS package only as its default export.
      request: undici.default.request,
      dispatcher: ssrf.createWebhookDispatcher({ allowPrivate: opts.allowPrivate, connectTimeoutMs: opts.connectTimeoutMs, ca }),
    })));
  return {
    async request(url, options) {
      const { request, dispatcher } = await load();
      return request(url, { ...options, dispatcher });
    },
    async close() {
      if (loading) await (await loading).dispatcher.close();
    },
  };
}
