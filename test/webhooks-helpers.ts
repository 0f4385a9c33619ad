import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** A throwaway CA and a server certificate for localhost / 127.0.0.1 / ::1, made with the openssl CLI once per test process. */
let pki: { dir: string; caFile: string; key: string; cert: string } | undefined;
export function testPki() {
  if (pki) return pki;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-pki-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Sheet Workspace Test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  pki = {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    key: fs.readFileSync(path.join(dir, 'server.key'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'server.pem'), 'utf8'),
  };
  return pki;
}

/** A self-signed certificate for 127.0.0.1 that no CA vouches for (the TLS failure case). */
let selfSigned: { key: string; cert: string } | undefined;
export function selfSignedPair() {
  if (selfSigned) return selfSigned;
  const { dir } = testPki();
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'self.key', '-out', 'self.pem', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    { cwd: dir, stdio: 'pipe' },
  );
  selfSigned = { key: fs.readFileSync(path.join(dir, 'self.key'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'self.pem'), 'utf8') };
  return selfSigned;
}

/** Env for a test server that trusts the test CA and may deliver to loopback. */
export function webhookEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { WEBHOOK_CA_FILE: testPki().caFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', ...extra };
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  body: any;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How to answer: status (default 200), a delay in ms, a body. */
  respond: (r: Received) => { status?: number; delayMs?: number; body?: string } | void;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTPS receiver on loopback, certificate signed by the test CA (or self-signed, which the sender must refuse). */
export async function startReceiver(host = '127.0.0.1', opts: { selfSigned?: boolean } = {}): Promise<Receiver> {
  const { key, cert } = opts.selfSigned ? selfSignedPair() : testPki();
  const timers = new Set<NodeJS.Timeout>();
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    respond: () => undefined,
    async waitFor(n, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (r.received.length < n) {
        if (Date.now() > end) throw new Error(`receiver got ${r.received.length} of ${n} deliveries in ${timeoutMs} ms`);
        await new Promise((res) => setTimeout(res, 5));
      }
      return r.received;
    },
    close: () =>
      new Promise<void>((res) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const rec: Received = { path: req.url ?? '', headers: req.headers, raw, body, at: performance.now() };
      r.received.push(rec);
      const answer = r.respond(rec) ?? {};
      const send = () => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' });
        res.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) {
        const t = setTimeout(send, answer.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((res) => server.listen(0, host, () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `https://${host.includes(':') ? `[${host}]` : host}:${r.port}/hook`;
  return r;
}
