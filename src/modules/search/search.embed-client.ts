/**
 * The client of an OpenAI-compatible embeddings endpoint (POST {EMBEDDINGS_URL}/embeddings: Ollama,
 * llama.cpp's server, vLLM, LM Studio, OpenAI itself), and the vector arithmetic semantic search uses.
 * Vectors are normalized to length 1 when received, so cosine similarity is a dot product.
 */

export interface EmbeddingsConfig {
  /** The API's base (…/v1) or the endpoint itself (…/v1/embeddings). */
  url: string;
  model: string;
  apiKey?: string;
  /** Sent as `dimensions` (models that can shorten their vectors, such as OpenAI's text-embedding-3). */
  dimensions?: number;
  /** A search compares the query with at most this many vectors (default 20,000). */
  maxVectors?: number;
}

/** A failure the same input will meet again (a 4xx other than 408/429): retrying does not help. */
export class PermanentEmbeddingError extends Error {}

/** A record's text is cut to this many characters before it is embedded (about 2,000 tokens; models cut beyond their window anyway). */
export const EMBED_MAX_CHARS = 8_000;

export function endpointOf(url: string): string {
  const base = url.replace(/\/+$/, '');
  return /\/embeddings$/.test(base) ? base : `${base}/embeddings`;
}

export function normalize(v: number[]): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const n = Math.sqrt(sum) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** Cosine similarity of two normalized vectors of the same length. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** One request for several texts; the vectors come back normalized, in the order of `texts`. */
export async function embed(cfg: EmbeddingsConfig, texts: string[], timeoutMs: number): Promise<Float32Array[]> {
  const body: Record<string, unknown> = { model: cfg.model, input: texts.map((t) => t.slice(0, EMBED_MAX_CHARS) || ' ') };
  if (cfg.dimensions) body.dimensions = cfg.dimensions;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  const res = await fetch(endpointOf(cfg.url), { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) {
    const detail = (await res.text().catch(() => '')).slice(0, 300);
    const message = `embeddings endpoint answered ${res.status}: ${detail}`;
    throw res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429 ? new PermanentEmbeddingError(message) : new Error(message);
  }
  const json = (await res.json()) as { data?: { embedding?: unknown; index?: number }[] };
  const data = Array.isArray(json.data) ? json.data : [];
  if (data.length !== texts.length) throw new Error(`embeddings endpoint returned ${data.length} vectors for ${texts.length} texts`);
  const out: Float32Array[] = new Array(texts.length);
  data.forEach((d, i) => {
    const at = typeof d.index === 'number' ? d.index : i;
    if (!Array.isArray(d.embedding) || d.embedding.length === 0 || !d.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new Error('embeddings endpoint returned a malformed vector');
    }
    out[at] = normalize(d.embedding as number[]);
  });
  if (out.some((v) => !v)) throw new Error('embeddings endpoint returned vectors with repeated indexes');
  return out;
}
