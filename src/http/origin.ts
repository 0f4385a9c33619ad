import type { FastifyRequest } from 'fastify';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A socket address as a URL host: IPv4-mapped IPv6 unwrapped, IPv6 in brackets. */
function urlHost(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1];
  return address.includes(':') ? `[${address.toLowerCase()}]` : address;
}

/**
 * The origin absolute URLs (OAuth issuer and endpoints, resource metadata, export links) start with:
 * PUBLIC_URL when set. Without it, never whatever a client puts in Host: the Host header is echoed
 * only when it names a loopback name or the very address the connection reached, with the port the
 * server listens on; anything else gets that address and port (the listen address). Behind a proxy
 * or under another name, set PUBLIC_URL.
 */
export function requestOrigin(publicUrl: string | undefined, req: FastifyRequest): string {
  if (publicUrl) return publicUrl;
  const { localAddress, localPort } = req.raw.socket;
  const own = urlHost(localAddress ?? '127.0.0.1');
  const port = String(localPort);
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(req.headers.host ?? '');
  const name = match?.[1].toLowerCase();
  const sent = match?.[2] ?? (req.protocol === 'https' ? '443' : '80');
  const host = name && (LOOPBACK_NAMES.has(name) || name === own) && sent === port ? name : own;
  return `${req.protocol}://${host}:${port}`;
}
