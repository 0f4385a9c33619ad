import http from 'node:http';
import { createHash } from 'node:crypto';

/**
 * A deterministic local stand-in of an OpenAI-compatible embeddings API (POST /v1/embeddings), for the
 * tests and `npm run eval -- --embeddings`: a hashed bag of words (DIMS buckets, each word's bucket by
 * sha256) where the words of a synonym group share one bucket, so a paraphrase sharing no word with a
 * record (but words of the same groups) is near it, as a real model places it. It counts requests and
 * can be taken down (`down = true`: every request answers 503) to test the fall-back to keywords.
 */
export const DIMS = 256;

/** Words that mean the same to the stand-in (and that the keyword search's own synonyms do not join). */
export const GROUPS = [
  ['automobile', 'car', 'vehicle', 'sedan'],
  ['purchase', 'buy', 'bought', 'acquired'],
  ['cheap', 'inexpensive', 'affordable', 'budget'],
  ['physician', 'doctor', 'clinician'],
  ['rapid', 'quick', 'fast', 'speedy'],
];
const CANON = new Map<string, string>();
for (const g of GROUPS) for (const w of g) CANON.set(w, g[0]);

export function fakeVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const w = CANON.get(raw) ?? raw;
    const h = createHash('sha256').update(w).digest();
    v[h.readUInt32BE(0) % DIMS] += 1;
  }
  return v;
}

export interface FakeEmbeddings {
  /** The API's base, as EMBEDDINGS_URL takes it (…/v1). */
  url: string;
  requests: number;
  /** Texts embedded so far (every request's inputs). */
  inputs: number;
  down: boolean;
  close(): Promise<void>;
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const state = { requests: 0, inputs: 0, down: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      state.requests++;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (state.down) return send(503, { error: { message: 'down for the test' } });
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'not found' } });
      let parsed: { model?: unknown; input?: unknown };
      try {
        parsed = JSON.parse(body);
      } catch {
        return send(400, { error: { message: 'bad json' } });
      }
      const input = typeof parsed.input === 'string' ? [parsed.input] : parsed.input;
      if (typeof parsed.model !== 'string' || !Array.isArray(input) || !input.every((t) => typeof t === 'string')) return send(400, { error: { message: 'model and input required' } });
      state.inputs += input.length;
      send(200, { object: 'list', model: parsed.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FakeEmbeddings;
}
