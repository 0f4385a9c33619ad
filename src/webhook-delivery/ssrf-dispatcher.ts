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
    super(`refused to connect to ${host} (${address}): ${range} addresses are not allowed as webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows them, for a receiver on this machine while testing)`);
    this.name = 'BlockedAddressError';
  }
}

/** The only IPv6 block that holds public unicast addresses (RFC 4291 global unicast). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** Deprecated IPv4-compatible addresses (::a.b.c.d): ipaddr.js calls them "unicast", but nothing public lives in ::/8. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * The range an address falls in; only "unicast" is public. IPv4 takes ipaddr.js's classes. IPv4-mapped
 * (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) IPv6 are judged as the IPv4 they carry. Any other
 * IPv6 is public only inside global unicast 2000::/3 and outside its special-purpose blocks (documentation,
 * 6to4, Teredo, ORCHID, ...); everything else (the ::/8 forms, NAT64 prefixes, 4000::/2, ...) is refused.
 * The forms that carry an IPv4 (IPv4-compatible, NAT64, 6to4, Teredo) are refused even when it is public;
 * when it is not, they are named by its range, so they are refused exactly as that IPv4 is.
 */
export function addressRange(address: string): string {
  const ip = parseAddress(address);
  if (!ip) return 'invalid';
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4At(bytes, 12).range();
  const form = range === 'unicast' && v6.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : range;
  const carried = carriedIPv4(form, bytes);
  if (carried) return carried.map((v4) => v4.range()).find((r) => r !== 'unicast') ?? form;
  if (form !== 'unicast') return form;
  return v6.match(GLOBAL_UNICAST_V6) ? 'unicast' : 'reserved';
}

const v4At = (bytes: number[], at: number) => ipaddr.fromByteArray(bytes.slice(at, at + 4)) as ipaddr.IPv4;

/** The IPv4 addresses an embedding form carries: RFC 4291 ::/96, RFC 6052 64:ff9b::/96, RFC 3056 6to4, RFC 4380 Teredo. */
function carriedIPv4(form: string, bytes: number[]): ipaddr.IPv4[] | undefined {
  switch (form) {
    case 'ipv4Compatible':
    case 'rfc6052':
      return [v4At(bytes, 12)];
    case '6to4':
      return [v4At(bytes, 2)];
    case 'teredo':
      // The Teredo server, and the client, whose address is stored inverted.
      return [
        v4At(bytes, 4),
        v4At(
          bytes.map((b) => b ^ 0xff),
          12,
        ),
      ];
    default:
      return undefined;
  }
}

/**
 * Parses only the strict forms Node connects to (dotted-quad IPv4, IPv6 text with an optional zone).
 * IPv6 is canonicalized by the WHATWG URL parser first: ipaddr.js reads "::1.2.3.4" (how getaddrinfo
 * prints the IPv4-compatible ::102:304) as ::ffff:1.2.3.4, which would judge it as the public 1.2.3.4.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) does not change the range
  const family = net.isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  if (family !== 6) return null;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
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
  // Built once, with or without extra CAs: without a `secureContext`, tls.connect builds a new one (the
  // root store) for every connection, ~1 ms of CPU each, paid again on every retry to a receiver that is
  // down. An explicit `ca` replaces Node's default store, so the public roots are kept alongside it.
  const tlsOptions = { secureContext: createSecureContext(opts.ca ? { ca: [...rootCertificates, opts.ca] } : {}) };
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
