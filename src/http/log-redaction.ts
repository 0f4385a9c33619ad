import type { LoggedRequest } from './request-log.js';

/** Path prefixes whose next segment is a credential (an export download token). */
const SECRET_PATHS = /^(\/exports\/)[^/?#]*/;

/** The url as logged: a download token, right or wrong, never reaches the logs; nor does the query string after it. */
export function redactUrl(url: string): string {
  return SECRET_PATHS.test(url) ? url.replace(SECRET_PATHS, '$1[redacted]').replace(/\?.*$/, '') : url;
}

/**
 * Fastify logger options with a request serializer that redacts secret path segments. Fastify's own
 * serializer logs req.url verbatim in "incoming request" and in error lines. The hot path's requests
 * (request-log.ts) go through the same serializer.
 */
export function withRedactedUrls(logger: boolean | object): boolean | object {
  if (logger === false) return false;
  const base = logger === true ? {} : (logger as { serializers?: Record<string, unknown> });
  return {
    ...base,
    serializers: {
      ...base.serializers,
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
