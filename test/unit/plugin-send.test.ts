import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createSpool, flush, ownerOf, pluginRequest, type Spool, type SpoolRequest } from '../plugin-modules.js';

/**
 * The sender's flush of the spool against a receiver that records each request and answers when the test says: where
 * each spool entry is at each moment, and the order of what reaches the service.
 */
interface Held {
  method: string;
  auth: string;
  path: string;
  body: string;
  answer(status: number): void;
}

async function receiver(onRequest: (held: Held, spool: string[]) => void, spoolDir: () => string) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const held: Held = {
        method: req.method ?? '',
        auth: req.headers.authorization ?? '',
        path: req.url ?? '',
        body,
        answer: (status) => res.writeHead(status, { 'content-type': 'application/json' }).end('{}'),
      };
      onRequest(held, fs.existsSync(spoolDir()) ? fs.readdirSync(spoolDir()) : []);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-send-'));
let n = 0;
const todo = (content: string) => ({ method: 'POST', path: '/v1/todos', body: { project: 'p', todos: [{ content, status: 'pending' }] } });

describe('plugin spool flush', () => {
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const setup = async (answer: (held: Held, spool: string[]) => void) => {
    const spool = createSpool(path.join(tmp, `s${n++}`, 'spool'));
    const { server, url } = await receiver(answer, () => spool.dir);
    const notes: string[] = [];
    const options = (ms = 2000) => ({ deadline: Date.now() + ms, perRequestMs: ms, log: (m: string) => notes.push(m) });
    /** A request the sender has just taken from the inbox: into the spool, then the spool sent. */
    const addAndFlush = (c: typeof cfg, sp: Spool, request: SpoolRequest, o: ReturnType<typeof options> & { key?: string }) => {
      sp.add(request, o.key, ownerOf(c));
      return flush(c, sp, { ...o, resolve: null });
    };
    const cfg = { url, apiKey: 'sk_test' };
    return { server, spool, cfg, options, notes, addAndFlush };
  };

  it("the entry is on disk as this process's claim while the service holds the request, gone once it answers", async () => {
    const seen: string[][] = [];
    const { server, spool, cfg, options, addAndFlush } = await setup((held, files) => {
      seen.push(files);
      held.answer(201);
    });
    try {
      const stats = await addAndFlush(cfg, spool, todo('Ship it'), options());
      assert.deepEqual(stats, { sent: 1, dropped: 0, left: 0, stalled: false, deferred: 0 });
      assert.equal(seen.length, 1);
      assert.equal(seen[0].length, 1);
      assert.match(seen[0][0], new RegExp(`\\.json\\.sending-${process.pid}$`), 'written before the service answered');
      assert.deepEqual(fs.readdirSync(spool.dir), []);
    } finally {
      server.close();
    }
  });

  it('an answer the service cannot take now (503) or none in time leaves the request waiting in the spool', async () => {
    let status = 503;
    const { server, spool, cfg, options, notes, addAndFlush } = await setup((held) => {
      if (status) held.answer(status); // status 0: never answer
    });
    try {
      const refused = await addAndFlush(cfg, spool, todo('Later'), options());
      assert.deepEqual([refused.sent, refused.left, refused.stalled], [0, 1, false]);
      assert.equal(spool.list().length, 1);
      assert.match(notes.join('\n'), /503; kept in the spool/);

      fs.rmSync(spool.dir, { recursive: true });
      status = 0;
      const slow = await addAndFlush(cfg, spool, todo('Slow'), options(300));
      assert.deepEqual([slow.sent, slow.left, slow.stalled], [0, 1, true]);
      const [waiting] = spool.list();
      assert.deepEqual(spool.claim(waiting)!.request.body, todo('Slow').body);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a session sent twice while the service refuses it waits once, with its latest content', async () => {
    const { server, spool, cfg, options, addAndFlush } = await setup((held) => held.answer(503));
    try {
      const put = (summary: string) => ({ method: 'PUT', path: '/v1/sessions/external/cc:s1', body: { summary } });
      await addAndFlush(cfg, spool, put('first'), { ...options(), key: put('').path }); // refused: kept
      await addAndFlush(cfg, spool, put('second'), { ...options(), key: put('').path }); // replaces the first
      const waiting = spool.list();
      assert.equal(waiting.length, 1);
      assert.deepEqual(spool.claim(waiting[0])!.request.body, { summary: 'second' });
    } finally {
      server.close();
    }
  });

  it('with entries waiting, the new request goes behind them: the service gets both, oldest first', async () => {
    const received: string[] = [];
    const { server, spool, cfg, options, addAndFlush } = await setup((held) => {
      received.push(JSON.parse(held.body).todos[0].content);
      held.answer(201);
    });
    try {
      spool.add(todo('Pending from before'), undefined, ownerOf(cfg));
      const stats = await addAndFlush(cfg, spool, todo('Completed now'), options());
      assert.equal(stats.sent, 2);
      assert.deepEqual(received, ['Pending from before', 'Completed now']);
      assert.deepEqual(fs.readdirSync(spool.dir), []);
    } finally {
      server.close();
    }
  });

  it('a refused request (422) is dropped, not retried forever', async () => {
    const { server, spool, cfg, options, notes, addAndFlush } = await setup((held) => held.answer(422));
    try {
      const stats = await addAndFlush(cfg, spool, todo('Bad'), options());
      assert.deepEqual([stats.sent, stats.dropped, stats.left], [0, 1, 0]);
      assert.deepEqual(fs.readdirSync(spool.dir), []);
      assert.match(notes.join('\n'), /refused \(422/);
    } finally {
      server.close();
    }
  });

  it('sends only the entries kept under its own key and URL; the others wait for theirs, untouched', async () => {
    const received: string[] = [];
    const { server, spool, cfg, options } = await setup((held) => {
      received.push(`${held.auth} ${JSON.parse(held.body).todos[0].content}`);
      held.answer(201);
    });
    try {
      const personal = { url: cfg.url, apiKey: 'sk_personal' };
      const team = { url: cfg.url, apiKey: 'sk_team' };
      const otherService = { url: `${cfg.url.replace('127.0.0.1', 'localhost')}`, apiKey: 'sk_personal' };
      spool.add(todo('Captured in project A'), undefined, ownerOf(personal));
      spool.add(todo('Captured for another service'), undefined, ownerOf(otherService));
      spool.add(todo('Captured in project B'), undefined, ownerOf(team));
      const asTeam = await flush(team, spool, { ...options(), resolve: null });
      assert.deepEqual([asTeam.sent, asTeam.dropped], [1, 0]);
      assert.deepEqual(received, ['Bearer sk_team Captured in project B']);
      assert.equal(spool.list().length, 2, "the personal key's entries still wait");
      const asPersonal = await flush(personal, spool, { ...options(), resolve: null });
      assert.equal(asPersonal.sent, 1);
      assert.deepEqual(received.slice(1), ['Bearer sk_personal Captured in project A']);
      assert.deepEqual(spool.list(), spool.list(ownerOf(otherService)), 'what another service URL kept waits for it');
    } finally {
      server.close();
    }
  });

  it("an entry whose content names another owner than its file name, or none (an older plugin's), is dropped, never sent", async () => {
    const received: string[] = [];
    const { server, spool, cfg, options, notes } = await setup((held) => {
      received.push(held.path);
      held.answer(201);
    });
    try {
      const name = spool.add(todo('Retagged'), undefined, ownerOf(cfg));
      const file = path.join(spool.dir, name);
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), owner: ownerOf({ url: cfg.url, apiKey: 'sk_other' }) }));
      fs.writeFileSync(path.join(spool.dir, '00000000000001-00000010000-rabc.json'), JSON.stringify(todo('Kept before owners')));
      const stats = await flush(cfg, spool, { ...options(), resolve: null });
      assert.deepEqual([stats.sent, received], [0, []]);
      assert.deepEqual(fs.readdirSync(spool.dir), []);
      assert.match(notes.join('\n'), /dropped 1 entries kept by an older plugin/);
      assert.match(notes.join('\n'), /POST \/v1\/todos: its owner is not the one its name says, dropped/);
    } finally {
      server.close();
    }
  });

  it('sends only the requests the plugin makes: anything else in the spool is dropped, and the log says so', async () => {
    const received: string[] = [];
    const { server, spool, cfg, options, notes } = await setup((held) => {
      received.push(`${held.method} ${held.path}`);
      held.answer(201);
    });
    try {
      const planted: SpoolRequest[] = [
        { method: 'DELETE', path: '/v1/sheets/sh_1' },
        { method: 'GET', path: '/v1/account' },
        { method: 'POST', path: '/v1/api-keys', body: { name: 'x' } },
        { method: 'POST', path: '/v1/todos/../api-keys', body: {} },
        { method: 'POST', path: '/v1/todos?x=1', body: {} },
        { method: 'PUT', path: '/v1/sessions/external/other:1', body: {} },
        { method: 'PUT', path: '/v1/sessions/external/cc:1/../../x', body: {} },
        { method: 'PUT', path: '/v1/sessions/external/cc:1', body: [1] },
        { method: 'PUT', path: '/v1/sessions/external/cc:1', capture: { transcript_path: '/etc/passwd', cwd: '/', project: 'p', session_id: 'cc:2' } } as SpoolRequest,
        { method: 'post', path: '/v1/todos', body: {} },
      ];
      for (const r of planted) spool.add(r, undefined, ownerOf(cfg));
      spool.add(todo('Real'), undefined, ownerOf(cfg));
      spool.add({ method: 'PUT', path: '/v1/sessions/external/cc:abc.1', body: { title: 't', summary: 's' } }, undefined, ownerOf(cfg));
      const stats = await flush(cfg, spool, { ...options(), resolve: null });
      assert.deepEqual(received, ['POST /v1/todos', 'PUT /v1/sessions/external/cc:abc.1']);
      assert.deepEqual([stats.sent, stats.dropped], [2, planted.length]);
      assert.deepEqual(fs.readdirSync(spool.dir), []);
      const log = notes.join('\n');
      assert.match(log, /DELETE \/v1\/sheets\/sh_1: not a request this plugin makes, dropped from the spool/);
      assert.match(log, /POST \/v1\/api-keys: not a request this plugin makes/);
      assert.equal(pluginRequest({ method: 'PUT', path: '/v1/sessions/external/cc:s1', capture: { transcript_path: '/t', cwd: '/', project: 'p', session_id: 's1' } }), true);
    } finally {
      server.close();
    }
  });
});
