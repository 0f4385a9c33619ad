import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createSpool, flush, type Spool, type SpoolRequest } from './plugin-modules.js';

/**
 * The sender's flush of the spool against a receiver that records each request and answers when the test says: where
 * each spool entry is at each moment, and the order of what reaches the service.
 */
interface Held {
  path: string;
  body: string;
  answer(status: number): void;
}

async function receiver(onRequest: (held: Held, spool: string[]) => void, spoolDir: () => string) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const held: Held = { path: req.url ?? '', body, answer: (status) => res.writeHead(status, { 'content-type': 'application/json' }).end('{}') };
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
    let spool: Spool | undefined;
    const { server, url } = await receiver(answer, () => spool!.dir);
    spool = createSpool(path.join(tmp, `s${n++}`, 'spool'));
    const notes: string[] = [];
    const options = (ms = 2000) => ({ deadline: Date.now() + ms, perRequestMs: ms, log: (m: string) => notes.push(m) });
    /** A request the sender has just taken from the inbox: into the spool, then the spool sent. */
    const addAndFlush = (c: typeof cfg, sp: Spool, request: SpoolRequest, o: ReturnType<typeof options> & { key?: string }) => {
      sp.add(request, o.key);
      return flush(c, sp, { ...o, resolve: null });
    };
    const cfg = { url, apiKey: 'sk_test' };
    return { server, spool, cfg, options, notes, addAndFlush };
  };

  it('the entry is on disk as this process\'s claim while the service holds the request, gone once it answers', async () => {
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
      spool.add(todo('Pending from before'));
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
});
