import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBroken, refuseKey, type FakeMode } from './fake-ai-failures.js';

/**
 * A loopback stand-in for the Anthropic Messages API that the real Claude Code CLI can talk to
 * (ANTHROPIC_BASE_URL=fake.url). The test scripts the model's turns as blocks (text, tool_use);
 * every request is recorded so a test can read the system prompt, the tools offered and the
 * tool results the CLI sent back.
 *
 * Main-loop versus side calls: the CLI also calls the model for small jobs (session titles,
 * topic detection, a one-token quota probe). Those requests offer no tools, while every turn of
 * the agent loop offers the built-in tools (Bash, Write, ...). So a request whose `tools`
 * array is non-empty consumes the next scripted turn; any other request gets a short plain
 * text answer and leaves the script alone. Compaction (/compact, or auto-compact) is the one
 * tool-offering call that is not a turn: its last user message asks for "a detailed summary of
 * the conversation"; it gets a scripted <summary> and leaves the script alone too.
 *
 * The Sparks provider tests use it too (through test/sparks-fakes.ts): with `apiKey` it refuses a
 * missing anthropic-version or another key as the real API does, and `mode` makes it misbehave.
 */

export type ScriptBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown; id?: string };
/** A turn's blocks, or a function of the request that asks for it (a turn that uses an earlier tool result). */
export type ScriptTurn = ScriptBlock[] | ((body: any) => ScriptBlock[]);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** True when the request came from the agent loop (it offered tools) and consumed a turn. */
  main: boolean;
}

export interface FakeAnthropic {
  /** For ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** Queue turns for the next main-loop requests; when the queue is empty the fake answers "Done." */
  script(...turns: ScriptTurn[]): void;
  /** The main-loop /v1/messages requests only. */
  mainRequests(): RecordedRequest[];
  /** What the side-call answers say (a title, say, or a Spark's result). */
  reply: string;
  /** How /v1/messages answers (test/fake-ai-failures.ts); 'slow' waits slowMs. */
  mode: FakeMode;
  slowMs: number;
  /** What a compaction request gets inside <summary>. */
  compactSummary: string;
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_fake${(++counter).toString().padStart(6, '0')}`;

/** Every text of a request's system prompt and messages, for searching what the model was shown. */
export function requestText(body: any): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(body?.system);
  walk(body?.messages);
  return parts.join('\n');
}

/** The tool_result blocks of a request's last user message, keyed by tool_use_id. */
export function toolResults(body: any): Map<string, { content: string; is_error: boolean }> {
  const out = new Map<string, { content: string; is_error: boolean }>();
  for (const msg of body?.messages ?? []) {
    if (msg.role !== 'user' || !Array.isArray(msg.content)) continue;
    for (const b of msg.content) {
      if (b.type !== 'tool_result') continue;
      const content = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c: any) => c.text ?? '').join('');
      out.set(b.tool_use_id, { content, is_error: !!b.is_error });
    }
  }
  return out;
}

function isCompaction(body: any): boolean {
  const last = body?.messages?.at?.(-1);
  return last?.role === 'user' && /create a detailed summary of the conversation/.test(requestText({ messages: [last] }));
}

function isMainLoop(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0 && !isCompaction(body);
}

function toContent(turn: ScriptBlock[]) {
  return turn.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: b.id ?? nextId('toolu'), name: b.name, input: b.input }));
}

function message(model: string, content: any[]) {
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function writeSse(res: http.ServerResponse, msg: ReturnType<typeof message>) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } } });
  send('ping', { type: 'ping' });
  msg.content.forEach((block: any, index: number) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const json = JSON.stringify(block.input ?? {});
      // Two pieces, as the real API streams partial JSON.
      const cut = Math.floor(json.length / 2);
      for (const partial_json of [json.slice(0, cut), json.slice(cut)]) {
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: msg.usage.output_tokens } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

export async function startFakeAnthropic(opts: { apiKey?: string } = {}): Promise<FakeAnthropic> {
  const queue: ScriptTurn[] = [];
  const fake: FakeAnthropic = {
    url: '',
    requests: [],
    reply: 'Scripted session',
    mode: 'ok',
    slowMs: 5000,
    compactSummary: 'Scripted compaction summary.',
    script: (...turns) => void queue.push(...turns),
    mainRequests: () => fake.requests.filter((r) => r.main),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        /* recorded as text */
      }
      const pathname = new URL(req.url!, 'http://x').pathname;
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': nextId('req') });
        res.end(JSON.stringify(value));
      };
      const main = req.method === 'POST' && pathname === '/v1/messages' && isMainLoop(body);
      fake.requests.push({ method: req.method!, path: req.url!, headers: req.headers, body, main });
      if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
        return json(200, { input_tokens: Math.ceil(JSON.stringify(body ?? '').length / 4) });
      }
      if (req.method === 'GET' && pathname.startsWith('/v1/models')) {
        return json(200, { data: [], has_more: false, first_id: null, last_id: null });
      }
      if (req.method !== 'POST' || pathname !== '/v1/messages') {
        return json(404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${pathname}` } });
      }
      if (opts.apiKey !== undefined) {
        if (!req.headers['anthropic-version']) {
          return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
        }
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if ((req.headers['x-api-key'] ?? bearer) !== opts.apiKey) return refuseKey(res, 'anthropic');
      }
      if (answerBroken(res, 'anthropic', fake.mode)) return;
      const side = isCompaction(body) ? `<analysis>scripted</analysis>\n<summary>${fake.compactSummary}</summary>` : fake.reply;
      const next = main ? (queue.shift() ?? [{ type: 'text', text: 'Done.' }]) : [{ type: 'text' as const, text: side }];
      const turn = typeof next === 'function' ? next(body) : next;
      const msg = message(String(body?.model ?? 'claude-fake'), fake.mode === 'empty-text' ? [] : toContent(turn));
      const send = () => (body?.stream ? writeSse(res, msg) : json(200, msg));
      if (fake.mode === 'slow') setTimeout(send, fake.slowMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
