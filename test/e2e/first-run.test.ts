import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { buildApp } from '../../src/app.js';
import { startBanner } from '../../src/logging.js';
import { request, startServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

// Issue 36.2 and 36.4: the first run shows the way, and even the parser's refusals speak our error shape.
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function cli(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Writes bytes no HTTP client library would send, and returns the raw answer. */
function raw(url: string, payload: Buffer): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let out = '';
    const sock = net.connect(Number(port), '127.0.0.1', () => sock.write(payload));
    sock.on('data', (d) => (out += d));
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
    setTimeout(() => sock.destroy(), 5000).unref();
  });
}
const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('the service root and /v1 show the way', () => {
  const { s } = useServer('sqlite');

  it('answers JSON with the console, playground and OpenAPI addresses', async () => {
    for (const p of ['/', '/v1', '/v1/']) {
      const res = await s.req('GET', p);
      assert.equal(res.status, 200, p);
      assert.equal(res.body.success, true);
      assert.deepEqual([res.body.links.console, res.body.links.playground, res.body.links.openapi], ['/console', '/playground', '/v1/openapi.json']);
      assert.match(res.body.version, /^\d+\.\d+\.\d+/);
    }
  });

  it('sends a browser to the console', async () => {
    const res = await fetch(`${s.url}/v1`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console');
  });

  it('an unencoded non-ASCII query gets our error shape with the encoding hint', async () => {
    const { key } = await s.user();
    const payload = Buffer.concat([Buffer.from('GET /v1/sheets?q='), Buffer.from('移行'), Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`)]);
    const answer = await raw(s.url, payload);
    assert.match(answer, /^HTTP\/1\.1 400 /);
    const body = jsonOf(answer);
    assert.equal(body.success, false);
    assert.equal(body.code, 'invalid_request');
    assert.match(body.error, /percent-encode/);
  });

  it('a malformed header gets our error shape', async () => {
    const answer = await raw(s.url, Buffer.from('GET /v1/sheets HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'));
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.deepEqual(Object.keys(jsonOf(answer)).sort(), ['code', 'error', 'success']);
    assert.match(jsonOf(answer).error, /header is malformed/);
  });
});

test('on a terminal each request logs one short line naming the route, never the raw URL', async () => {
  const s = await startServer('sqlite');
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk, _e, cb) => (lines.push(...String(chunk).trim().split('\n')), cb()) });
  const app = await buildApp(s.c, { logger: { level: 'info', stream }, requestLog: 'line' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { key } = await s.user();
    const url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const made = await request(url, 'POST', '/v1/sheets', { key, body: { title: 'x' } });
    await request(url, 'GET', `/v1/sheets/${made.body.id}/columns?secret=abc`, { key });
    await new Promise((r) => setTimeout(r, 50));
    const records = lines.map((l) => JSON.parse(l)).filter((r) => !/^Server listening/.test(r.msg));
    assert.equal(records.length, 2, lines.join('\n'));
    assert.deepEqual(
      records.map((r) => r.msg.replace(/ [\d.]+ ms$/, '')),
      ['POST /v1/sheets 200', 'GET /v1/sheets/:id/columns 200'],
    );
    assert.ok(!lines.join('').includes('secret=abc'));
  } finally {
    await app.close();
    await s.close();
  }
});

test('the start banner names the console and playground beside the owner key', () => {
  const text = startBanner('http://127.0.0.1:8787', { user_id: 'usr_1', api_key: 'sk_abc' });
  assert.match(text, /Console\s+http:\/\/127\.0\.0\.1:8787\/console/);
  assert.match(text, /Playground\s+http:\/\/127\.0\.0\.1:8787\/playground/);
  assert.match(text, /sk_abc/);
  assert.match(text, /users key usr_1/);
  assert.doesNotMatch(startBanner('http://h:1', null), /sk_/);
});

test('npm start prints the banner with the addresses and the key on first start', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-banner-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' } });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const deadline = Date.now() + 60_000;
  while (!/shown only now[\s\S]*users key/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  assert.match(stdout, /Console\s+http:\/\/127\.0\.0\.1:\d+\/console/);
  assert.match(stdout, /Playground\s+http:\/\/127\.0\.0\.1:\d+\/playground/);
  assert.match(stdout, /sk_[A-Za-z0-9_-]{43}/);
});

describe('users key: the way back from a lost key', () => {
  it('gives an existing account a new working key, and refuses an unknown account', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-key-'));
    const env = { DATA_DIR: dataDir };
    const made = JSON.parse((await cli(['users', 'create', '--name', 'ada', '--json'], env)).stdout);
    const key = await cli(['users', 'key', made.user_id, '--name', 'laptop', '--json'], env);
    assert.equal(key.code, 0, key.stderr);
    const out = JSON.parse(key.stdout);
    assert.equal(out.user_id, made.user_id);
    assert.match(out.api_key, /^sk_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(out.api_key, made.api_key);
    const s = await startServer('sqlite', { dataDir });
    try {
      for (const k of [made.api_key, out.api_key]) assert.equal((await s.req('GET', '/v1/sheets', { key: k })).status, 200);
      const keys = await s.req('GET', '/v1/api-keys', { key: out.api_key });
      assert.ok(
        keys.body.api_keys.some((k: { name: string }) => k.name === 'laptop'),
        JSON.stringify(keys.body),
      );
    } finally {
      await s.close();
    }
    const missing = await cli(['users', 'key', 'usr_nope'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /not found/);
  });

  it('users --help describes every command', async () => {
    const help = (await cli(['users', '--help'], {})).stdout;
    for (const command of ['create', 'list', 'set-plan', 'key']) {
      assert.match(help, new RegExp(`\\n\\s+${command}\\b[^\\n]*\\S{3,}[^\\n]*\\w`), `${command} has no description:\n${help}`);
    }
  });
});
