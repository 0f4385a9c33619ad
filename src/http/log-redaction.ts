/**
 * A request as its log lines show it (the `req` serializer below reads these): a FastifyRequest has
 * them, and the hot path (request-log.ts) builds them from the raw request with the same settings.
 */
export interface LoggedRequest {
  method: string;
  url: string;
  host: string;
  ip: string | undefined;
  socket?: { remotePort?: number };
}

/**
 * Paths whose next segment is a credential: an export download (/exports/{token}), a share link's page
 * and JSON (/s/{token}, /v1/shared/{token}) and an invitation (/v1/invitations/{token}/accept). Matched
 * case-insensitively and across repeated slashes, so a mistyped request for one (a 404) is redacted too.
 */
const SECRET_PATHS = /^(\/+(?:exports|s|v1\/+shared|v1\/+invitations)\/+)[^/?#]*/i;

/** The url as logged: a link, download or invitation token, right or wrong, never reaches the logs; nor does the query string after it. */
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
