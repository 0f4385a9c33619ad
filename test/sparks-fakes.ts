import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBroken, refuseKey, sendJson, type FakeMode } from './fake-ai-failures.js';
import { startFakeAnthropic } from './fake-anthropic.js';

/**
 * Loopback fakes of the two AI protocols the Sparks providers speak: OpenAI chat completions
 * (POST /v1/chat/completions, here) and Anthropic Messages (POST /v1/messages, test/fake-anthropic.ts).
 * They record every request and answer the way the real services do, or misbehave on demand.
 */
export { INTERNAL_DETAIL, type FakeMode } from './fake-ai-failures.js';

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

/**
 * `apiKey`: the only key the fake accepts, as the real services do (OpenAI: Authorization: Bearer;
 * Anthropic: x-api-key, or Authorization: Bearer as the SDKs send it since API version 2026-10-21).
 * A keyless request passes the OpenAI fake, as with a local Ollama.
 */
export async function startFakeAi(protocol: 'openai' | 'anthropic', apiKey: string): Promise<FakeAi> {
  if (protocol === 'anthropic') {
    const fake = await startFakeAnthropic({ apiKey });
    fake.reply = 'fake answer';
    return fake;
  }
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
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (given !== undefined && given !== apiKey) return refuseKey(res, 'openai');
      const answer = (text: string) => sendJson(res, 200, openAiAnswer(String(body?.model), text));
      if (answerBroken(res, 'openai', fake.mode)) return;
      if (fake.mode === 'slow') return void setTimeout(() => answer(fake.reply), fake.slowMs).unref();
      answer(fake.mode === 'empty-text' ? '' : fake.reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
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
