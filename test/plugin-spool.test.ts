import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSpool, isoTime } from './plugin-modules.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-spool-'));
let n = 0;
const freshDir = () => path.join(tmp, `s${n++}`, 'spool');
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('plugin spool', () => {
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('keeps each request in an owner-only file inside an owner-only folder, oldest first', () => {
    const spool = createSpool(freshDir());
    const a = spool.add({ method: 'POST', path: '/v1/todos', body: { todos: [] } });
    const b = spool.add({ method: 'PUT', path: '/v1/sessions/external/cc:1', body: { title: 't' } });
    assert.deepEqual(spool.list(), [a, b]);
    assert.equal(mode(spool.dir), 0o700);
    for (const name of spool.list()) assert.equal(mode(path.join(spool.dir, name)), 0o600);
    const claim = spool.claim(a)!;
    assert.deepEqual({ method: claim.request.method, path: claim.request.path }, { method: 'POST', path: '/v1/todos' });
  });

  it('tightens a folder that exists with wider permissions', () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    createSpool(dir).add({ method: 'POST', path: '/x' });
    assert.equal(mode(dir), 0o700);
  });

  it('a newer request with the same key replaces the one waiting', () => {
    const spool = createSpool(freshDir());
    spool.add({ method: 'PUT', path: '/v1/sessions/external/cc:1', body: { summary: 'old' } }, 'cc:1');
    const other = spool.add({ method: 'PUT', path: '/v1/sessions/external/cc:2', body: { summary: 'other' } }, 'cc:2');
    const newer = spool.add({ method: 'PUT', path: '/v1/sessions/external/cc:1', body: { summary: 'new' } }, 'cc:1');
    assert.deepEqual(spool.list(), [other, newer]);
    assert.deepEqual(spool.claim(newer)!.request.body, { summary: 'new' });
  });

  it('drops the oldest entries past the count bound and notes it in the log', () => {
    const notes: string[] = [];
    const spool = createSpool(freshDir(), { limits: { entries: 5, bytes: 1e9 }, log: (m) => notes.push(m) });
    const names = Array.from({ length: 8 }, (_, i) => spool.add({ method: 'POST', path: `/v1/todos?i=${i}` }));
    assert.deepEqual(spool.list(), names.slice(3));
    assert.equal(notes.length, 3);
    assert.match(notes.join('\n'), /spool full .*dropped 1 oldest/);
  });

  it('drops the oldest entries past the size bound', () => {
    const spool = createSpool(freshDir(), { limits: { entries: 1000, bytes: 5000 }, log: () => {} });
    const names = Array.from({ length: 6 }, () => spool.add({ method: 'POST', path: '/v1/todos', body: { pad: 'x'.repeat(1500) } }));
    const left = spool.list();
    assert.deepEqual(left, names.slice(-left.length));
    assert.ok(left.length === 3, String(left.length));
    const total = left.reduce((s, f) => s + fs.statSync(path.join(spool.dir, f)).size, 0);
    assert.ok(total <= 5000);
  });

  it('a claimed entry is invisible to a second sender; release puts it back, done removes it', () => {
    const spool = createSpool(freshDir());
    const name = spool.add({ method: 'POST', path: '/v1/todos' });
    const first = spool.claim(name)!;
    assert.equal(spool.claim(name), null);
    assert.deepEqual(spool.list(), []);
    spool.release(first);
    assert.deepEqual(spool.list(), [name]);
    spool.done(spool.claim(name)!);
    assert.deepEqual(fs.readdirSync(spool.dir), []);
  });

  it('an entry whose sender died mid-send comes back after a minute, not before', () => {
    const spool = createSpool(freshDir());
    const name = spool.add({ method: 'POST', path: '/v1/todos' });
    spool.claim(name);
    spool.recoverStale(Date.now());
    assert.deepEqual(spool.list(), []);
    spool.recoverStale(Date.now() + 61_000);
    assert.deepEqual(spool.list(), [name]);
  });

  it('a claim of a process that is gone comes back at once; releaseAll puts back what this process holds', async () => {
    const spool = createSpool(freshDir());
    const name = spool.add({ method: 'POST', path: '/v1/todos' });
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => child.on('close', r));
    fs.renameSync(path.join(spool.dir, name), path.join(spool.dir, `${name}.sending-${child.pid}`));
    spool.recoverStale(Date.now());
    assert.deepEqual(spool.list(), [name]);

    const other = spool.add({ method: 'POST', path: '/v1/todos' });
    spool.claim(name);
    spool.claim(other);
    assert.deepEqual(spool.list(), []);
    spool.releaseAll();
    assert.deepEqual(spool.list(), [name, other]);
  });

  it('an unreadable entry is dropped with a note instead of blocking the queue', () => {
    const notes: string[] = [];
    const spool = createSpool(freshDir(), { log: (m) => notes.push(m) });
    const name = spool.add({ method: 'POST', path: '/v1/todos' });
    fs.writeFileSync(path.join(spool.dir, name), '{torn');
    assert.equal(spool.claim(name), null);
    assert.deepEqual(fs.readdirSync(spool.dir), []);
    assert.match(notes[0], /unreadable/);
  });

  it('stamps entries with the time as toISOString would, without a Date', () => {
    // Leap days, century rules (1900 is no leap year, 2000 is), ends of months, years and the last millisecond of 9999.
    const edges = [0, 951_782_400_000, 951_868_799_999, 951_868_800_000, 4_107_542_399_999, 4_107_542_400_000, 1_709_164_800_000, 253_402_300_799_999];
    const random = Array.from({ length: 20_000 }, () => Math.floor(Math.random() * 253_402_300_800_000));
    for (const ms of [...edges, ...random]) assert.equal(isoTime(ms), new Date(ms).toISOString(), `at ${ms}`);
    const spool = createSpool(freshDir());
    const before = Date.now();
    const entry = JSON.parse(fs.readFileSync(path.join(spool.dir, spool.add({ method: 'POST', path: '/v1/todos' })), 'utf8'));
    assert.ok(Date.parse(entry.at) >= before && Date.parse(entry.at) <= Date.now(), entry.at);
  });
});
