import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSpool, isoTime, ownerOf, type Owner, type Spool, type SpoolRequest } from '../plugin-modules.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-spool-'));
let n = 0;
const freshDir = () => path.join(tmp, `s${n++}`, 'spool');
const mode = (p: string) => fs.statSync(p).mode & 0o777;
const me: Owner = ownerOf({ url: 'http://127.0.0.1:8787', apiKey: 'sk_me' });
/** The spool's add as the sender calls it, for one owner. */
const add = (spool: Spool, request: SpoolRequest, key?: string, owner: Owner = me) => spool.add(request, key, owner);

describe('plugin spool', () => {
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('keeps each request in an owner-only file inside an owner-only folder, oldest first', () => {
    const spool = createSpool(freshDir());
    const a = add(spool, { method: 'POST', path: '/v1/todos', body: { todos: [] } });
    const b = add(spool, { method: 'PUT', path: '/v1/sessions/external/cc:1', body: { title: 't' } });
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
    add(createSpool(dir), { method: 'POST', path: '/x' });
    assert.equal(mode(dir), 0o700);
  });

  it('a newer request with the same key replaces the one waiting', () => {
    const spool = createSpool(freshDir());
    add(spool, { method: 'PUT', path: '/v1/sessions/external/cc:1', body: { summary: 'old' } }, 'cc:1');
    const other = add(spool, { method: 'PUT', path: '/v1/sessions/external/cc:2', body: { summary: 'other' } }, 'cc:2');
    const newer = add(spool, { method: 'PUT', path: '/v1/sessions/external/cc:1', body: { summary: 'new' } }, 'cc:1');
    assert.deepEqual(spool.list(), [other, newer]);
    assert.deepEqual(spool.claim(newer)!.request.body, { summary: 'new' });
  });

  it("each entry names its owner (service URL, key fingerprint, never the key); list(owner) gives only that owner's", () => {
    const spool = createSpool(freshDir());
    const other = ownerOf({ url: 'http://127.0.0.1:8787', apiKey: 'sk_team' });
    const elsewhere = ownerOf({ url: 'https://sheets.example', apiKey: 'sk_me' });
    const mine = add(spool, { method: 'POST', path: '/v1/todos', body: {} });
    const theirs = add(spool, { method: 'POST', path: '/v1/todos', body: {} }, undefined, other);
    const away = add(spool, { method: 'POST', path: '/v1/todos', body: {} }, undefined, elsewhere);
    assert.deepEqual(spool.list(me), [mine]);
    assert.deepEqual(spool.list(other), [theirs]);
    assert.deepEqual(spool.list(elsewhere), [away]);
    assert.deepEqual(spool.list(), [mine, theirs, away]);
    const text = fs.readFileSync(path.join(spool.dir, mine), 'utf8');
    assert.deepEqual(JSON.parse(text).owner, me);
    assert.match(me.key, /^[0-9a-f]{32}$/);
    assert.equal(text.includes('sk_me'), false, 'the key itself is never kept');
    assert.throws(() => spool.add({ method: 'POST', path: '/v1/todos' }, undefined, undefined as unknown as Owner), /owner/);
  });

  it("a newer session of one owner replaces only that owner's, not the same session kept under another key", () => {
    const spool = createSpool(freshDir());
    const other = ownerOf({ url: 'http://127.0.0.1:8787', apiKey: 'sk_team' });
    const put = (summary: string) => ({ method: 'PUT', path: '/v1/sessions/external/cc:1', body: { summary } });
    const theirs = add(spool, put('theirs'), 'cc:1', other);
    add(spool, put('old'), 'cc:1');
    const newer = add(spool, put('new'), 'cc:1');
    assert.deepEqual(spool.list(), [theirs, newer]);
  });

  it('drops the oldest entries past the count bound and notes it in the log', () => {
    const notes: string[] = [];
    const spool = createSpool(freshDir(), { limits: { entries: 5, bytes: 1e9 }, log: (m) => notes.push(m) });
    const names = Array.from({ length: 8 }, (_, i) => add(spool, { method: 'POST', path: `/v1/todos?i=${i}` }));
    assert.deepEqual(spool.list(), names.slice(3));
    assert.equal(notes.length, 3);
    assert.match(notes.join('\n'), /spool full .*dropped 1 oldest/);
  });

  it('drops the oldest entries past the size bound', () => {
    const spool = createSpool(freshDir(), { limits: { entries: 1000, bytes: 5000 }, log: () => {} });
    const names = Array.from({ length: 6 }, () => add(spool, { method: 'POST', path: '/v1/todos', body: { pad: 'x'.repeat(1400) } }));
    const left = spool.list();
    assert.deepEqual(left, names.slice(-left.length));
    assert.ok(left.length === 3, String(left.length));
    const total = left.reduce((s, f) => s + fs.statSync(path.join(spool.dir, f)).size, 0);
    assert.ok(total <= 5000);
  });

  it('a claimed entry is invisible to a second sender; release puts it back, done removes it', () => {
    const spool = createSpool(freshDir());
    const name = add(spool, { method: 'POST', path: '/v1/todos' });
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
    const name = add(spool, { method: 'POST', path: '/v1/todos' });
    spool.claim(name);
    spool.recoverStale(Date.now());
    assert.deepEqual(spool.list(), []);
    spool.recoverStale(Date.now() + 61_000);
    assert.deepEqual(spool.list(), [name]);
  });

  it('a claim of a process that is gone comes back at once; releaseAll puts back what this process holds', async () => {
    const spool = createSpool(freshDir());
    const name = add(spool, { method: 'POST', path: '/v1/todos' });
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => child.on('close', r));
    fs.renameSync(path.join(spool.dir, name), path.join(spool.dir, `${name}.sending-${child.pid}`));
    spool.recoverStale(Date.now());
    assert.deepEqual(spool.list(), [name]);

    const other = add(spool, { method: 'POST', path: '/v1/todos' });
    spool.claim(name);
    spool.claim(other);
    assert.deepEqual(spool.list(), []);
    spool.releaseAll();
    assert.deepEqual(spool.list(), [name, other]);
  });

  it('an unreadable entry is dropped with a note instead of blocking the queue', () => {
    const notes: string[] = [];
    const spool = createSpool(freshDir(), { log: (m) => notes.push(m) });
    const name = add(spool, { method: 'POST', path: '/v1/todos' });
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
    const entry = JSON.parse(fs.readFileSync(path.join(spool.dir, add(spool, { method: 'POST', path: '/v1/todos' })), 'utf8'));
    assert.ok(Date.parse(entry.at) >= before && Date.parse(entry.at) <= Date.now(), entry.at);
  });
});
