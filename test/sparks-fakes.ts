import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback fakes of the two AI protocols: OpenAI chat completions
 * (POST /v1/chat/completions) and Anthropic Messages (POST /v1/messages).
 * They record every request and answer the way the real services do, or
 * misbehave on demand.
 */
/** What a failing provider may echo (hosts, addresses, keys): it must never reach our clients. */
export const INTERNAL_DETAIL = 'gpu-7.corp.internal (10.1.2.3) with key sk-live-SECRET123';

export type FakeMode = 'ok' | 'slow' | 'invalid-json' | 'no-choices' | 'empty-text' | 'html-page' | 'http-401' | 'http-500';

export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeAi {
  /** For AI_BASE_URL. */
  url: string;
  requests: Recorded[];
  mode: FakeMode;
  /** The text the fake answers with. */
  reply: string;
  slowMs: number;
  close(): Promise<void>;
}

function openAiAnswer(model: string, text: string) {
  return {
    id: 'chatcmpl-fake1',
    object: 'chat.completion',
    created: 1_760_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function anthropicAnswer(model: string, text: string) {
  return {
    id: 'msg_fake1',
    type: 'message',
    role: 'assistant',
    model,
    content: text === '' ? [] : [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/**
 * `apiKey`: the only key the fake accepts, as the real services do (OpenAI: Authorization: Bearer;
 * Anthropic: x-api-key, or Authorization: Bearer as the SDKs send it since API version 2026-10-21).
 * A keyless request passes the OpenAI fake, as with a local Ollama.
 */
export async function startFakeAi(protocol: 'openai' | 'anthropic', apiKey: string): Promise<FakeAi> {
  const path = protocol === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  const fake: FakeAi = { url: '', requests: [], mode: 'ok', reply: 'fake answer', slowMs: 5000, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: any = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as text */
      }
      fake.requests.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || req.url !== path) return json(404, { error: { message: `no route ${req.method} ${req.url}` } });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const given = protocol === 'anthropic' ? (req.headers['x-api-key'] ?? bearer) : bearer;
      if (protocol === 'anthropic' && !req.headers['anthropic-version']) {
        return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
      }
      if ((protocol === 'anthropic' || given !== undefined) && given !== apiKey) {
        return protocol === 'openai'
          ? json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })
          : json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      }
      const model = String(body?.model);
      const answer = (text: string) => json(200, protocol === 'openai' ? openAiAnswer(model, text) : anthropicAnswer(model, text));
      switch (fake.mode) {
        case 'ok':
          return answer(fake.reply);
        case 'slow':
          return void setTimeout(() => answer(fake.reply), fake.slowMs).unref();
        case 'invalid-json':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"choices": [');
        case 'no-choices':
          return json(200, protocol === 'openai' ? { id: 'x', object: 'chat.completion', choices: [] } : { id: 'x', type: 'message' });
        case 'empty-text':
          return answer('');
        case 'html-page':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>Welcome to nginx!</body></html>');
        case 'http-401':
          return protocol === 'openai'
            ? json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })
            : json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
        case 'http-500':
          return json(500, { error: { message: `model crashed on ${INTERNAL_DETAIL}`, type: 'server_error' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  fake.url = protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/** A loopback port with nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
