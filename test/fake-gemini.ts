import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the Gemini API (models/<model>:streamGenerateContent?alt=sse, :generateContent,
 * :countTokens) that the real Gemini CLI talks to with GOOGLE_GEMINI_BASE_URL=fake.url. Requests that offer tools are
 * the agent loop: each takes the next scripted turn (an empty script answers "Done."). Others are the CLI's side calls
 * (a next-speaker check, a summary, routing): a JSON one gets {"next_speaker":"user"}, any other a short text; they leave
 * the script alone. Every request is recorded.
 */

export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };
export type GeminiTurn = GeminiPart[] | ((body: any) => GeminiPart[]);

export interface RecordedGeminiRequest {
  method: string;
  path: string;
  body: any;
  main: boolean;
}

export interface FakeGemini {
  url: string;
  requests: RecordedGeminiRequest[];
  mainRequests(): RecordedGeminiRequest[];
  script(...turns: GeminiTurn[]): void;
  close(): Promise<void>;
}

const offersTools = (body: any) => Array.isArray(body?.tools) && body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length);

export async function startFakeGemini(): Promise<FakeGemini> {
  const queue: GeminiTurn[] = [];
  const requests: RecordedGeminiRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body: any = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      } catch {
        /* not JSON */
      }
      const path = (req.url ?? '').split('?')[0];
      const main = offersTools(body) && /:(stream)?[gG]enerateContent$/.test(path);
      requests.push({ method: req.method ?? '', path, body, main });
      if (path.endsWith(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 10 }));
        return;
      }
      let parts: GeminiPart[];
      if (main) {
        const turn = queue.shift() ?? [{ text: 'Done.' }];
        parts = typeof turn === 'function' ? turn(body) : turn;
      } else {
        const json = body?.generationConfig?.responseMimeType === 'application/json';
        parts = [{ text: json ? JSON.stringify({ next_speaker: 'user', reasoning: 'The model answered.', model_choice: 'flash', complexity_reasoning: 'simple', complexity_score: 10 }) : 'ok' }];
      }
      const response = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: 'gemini-fake',
      };
      if (path.endsWith(':streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(response)}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(response));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.main),
    script: (...turns) => void queue.push(...turns),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
