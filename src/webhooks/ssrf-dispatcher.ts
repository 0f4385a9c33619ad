import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, buildConnector } from 'undici';

/**
 * The dispatcher every webhook request goes through. The SSRF guard sits in
 * the connector, so it judges the address the socket actually connects to:
 * a literal IP in the URL, or every address a hostname resolves to (a name
 * that resolves to 127.0.0.1 is refused, and so is DNS rebinding, because
 * the checked answer is the one used). Only public unicast passes.
 */

export class BlockedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_BLOCKED_ADDRESS';
  constructor(host: string, address: string, range: string) {
    super(`refused to connect to ${host} (${address}): ${range} addresses are not allowed as webhook targets`);
    this.name = 'BlockedAddressError';
  }
}

/** The ipaddr.js range name of an address; IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 it maps to. */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  return ipaddr.process(address).range();
}

export const isPublicUnicast = (address: string) => addressRange(address) === 'unicast';

type LookupAll = { address: string; family: number }[];
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAll, family?: number) => void;

function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    for (const a of addresses) {
      const range = addressRange(a.address);
      if (range !== 'unicast') return callback(new BlockedAddressError(hostname, a.address, range), '');
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    callback(null, first.address, first.family);
  });
}

export interface DispatcherOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: lifts the guard, for local testing only. */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), e.g. a test CA; added to Node's defaults. */
  ca?: string;
  connectTimeoutMs: number;
}

export function createWebhookDispatcher(opts: DispatcherOptions): Agent {
  // An explicit `ca` replaces Node's default store, so the public roots are kept alongside it. Built once:
  // parsing ~140 roots per connection would cost hundreds of milliseconds.
  const tlsOptions = opts.ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, opts.ca] }) } : {};
  const base = buildConnector({
    timeout: opts.connectTimeoutMs,
    ...tlsOptions,
    ...(opts.allowPrivate ? {} : { lookup: guardedLookup }),
  } as buildConnector.BuildOptions);

  const connect: buildConnector.connector = (options, callback) => {
    // Node skips `lookup` for literal IPs, so those are checked here.
    if (!opts.allowPrivate && net.isIP(options.hostname)) {
      const range = addressRange(options.hostname);
      if (range !== 'unicast') {
        callback(new BlockedAddressError(options.hostname, options.hostname, range), null);
        return;
      }
    }
    base(options, callback);
  };

  // Kept-alive sockets were checked when they connected; short idle times bound reuse after a DNS change.
  return new Agent({ connect, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000, connections: 16 });
}
