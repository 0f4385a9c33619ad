import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the OpenAI Responses API (POST /v1/responses, streamed as server-sent events) that the real
 * Codex CLI talks to through a custom model provider (config.toml [model_providers.fake] base_url = fake.url,
 * wire_api = "responses"). The test scripts the model's turns: each POST /responses takes the next one; an empty
 * script answers "Done.". Every request is recorded, so a test can read the instructions and input Codex sent.
 * Other paths (model lists and the like) get an empty JSON answer.
 */

export type OutputItem = { type: 'message'; text: string } | { type: 'function_call'; name: string; arguments: unknown } | { type: 'custom_tool_call'; name: string; input: string };
export type ResponsesTurn = OutputItem[] | ((body: any) => OutputItem[]);

export interface RecordedResponsesRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeResponses {
  /** For the provider's base_url (ends in /v1). */
  url: string;
  requests: RecordedResponsesRequest[];
  /** The POST /responses requests only. */
  turns(): RecordedResponsesRequest[];
  script(...turns: ResponsesTurn[]): void;
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_fake${(++counter).toString().padStart(6, '0')}`;

/** Every string in a request body, joined: what the model was shown. */
export function responsesText(body: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(body);
  return parts.join('\n');
}

function outputItem(item: OutputItem): any {
  if (item.type === 'message') {
    return { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
  }
  if (item.type === 'function_call') {
    const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments);
    return { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: item.name, arguments: args, status: 'completed' };
  }
  return { type: 'custom_tool_call', id: nextId('ctc'), call_id: nextId('call'), name: item.name, input: item.input, status: 'completed' };
}

export async function startFakeResponses(): Promise<FakeResponses> {
  const queue: ResponsesTurn[] = [];
  const requests: RecordedResponsesRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const path = (req.url ?? '').split('?')[0];
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      if (req.method !== 'POST' || !path.endsWith('/responses')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(path.endsWith('/models') ? JSON.stringify({ object: 'list', data: [], models: [] }) : '{}');
        return;
      }
      const turn = queue.shift() ?? [{ type: 'message', text: 'Done.' }];
      const items = (typeof turn === 'function' ? turn(body) : turn).map(outputItem);
      const id = nextId('resp');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
      items.forEach((item, output_index) => {
        send('response.output_item.added', { output_index, item });
        send('response.output_item.done', { output_index, item });
      });
      send('response.completed', {
        response: {
          id,
          object: 'response',
          status: 'completed',
          output: items,
          usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
        },
      });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    turns: () => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses')),
    script: (...turns) => void queue.push(...turns),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
