import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The REST client `memory export` and `memory import` use: a running server (SHEET_WORKSPACE_URL, default
 * http://127.0.0.1:8787) and an API key (SHEET_WORKSPACE_API_KEY), else ~/.sheet-workspace/connect.json as
 * `connect` writes it. Every read and write goes through the server's services, with the key's scopes.
 */

/** A failure the user can fix (bad input, unknown project, unreadable file): exit code 2. */
export class MemoryInputError extends Error {
  readonly exitCode = 2;
}

export interface ClientOptions {
  url?: string;
  key?: string;
  /** The home folder holding .sheet-workspace/connect.json (default: the user's). */
  home?: string;
}

export interface Api {
  url: string;
  /* eslint-disable @typescript-eslint/no-explicit-any -- the answers are parsed JSON, unchecked: a caller that names no type T reads the fields it knows */
  get<T = any>(p: string, query?: Record<string, string | number | undefined>): Promise<T>;
  /** GET that answers null on 404 (and 403: another account's record). */
  find<T = any>(p: string): Promise<T | null>;
  send<T = any>(method: 'POST' | 'PUT' | 'DELETE', p: string, body?: unknown, query?: Record<string, string | undefined>): Promise<T>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

function connectFile(home?: string): { url?: string; api_key?: string } {
  const file = path.join(home ?? os.homedir(), '.sheet-workspace', 'connect.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** A 4xx answer is the user's to fix (exit code 2); a 5xx the server's (exit code 1). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  get exitCode(): number {
    return this.status < 500 ? 2 : 1;
  }
}

export function createApi(o: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): Api {
  const saved = o.url && o.key ? {} : connectFile(o.home);
  const base = (o.url ?? env.SHEET_WORKSPACE_URL?.trim() ?? saved.url ?? 'http://127.0.0.1:8787').replace(/\/+$/, '').replace(/\/(v1|mcp)$/, '');
  const key = o.key ?? env.SHEET_WORKSPACE_API_KEY?.trim() ?? saved.api_key;
  if (!key) throw new MemoryInputError('An API key is needed: set SHEET_WORKSPACE_API_KEY (or pass --key, or run `sheet-workspace connect`)');
  try {
    new URL(base);
  } catch {
    throw new MemoryInputError(`The service URL must be absolute, such as http://127.0.0.1:8787 (not ${JSON.stringify(base)})`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, typed by Api's callers
  async function call(method: string, p: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<any> {
    const u = new URL(`${base}/v1${p}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(u, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new Error(`Sheet Workspace at ${base} is not reachable (${(err as Error).message}): start it, or set SHEET_WORKSPACE_URL`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* below */
    }
    if (!res.ok) {
      const msg = (json as { error?: unknown } | null)?.error ?? text.slice(0, 200);
      if (res.status === 401) throw new MemoryInputError(`The API key was refused by ${base}: ${msg}`);
      throw new HttpError(res.status, `${method} /v1${p}: ${res.status} ${msg}`);
    }
    return json;
  }

  return {
    url: base,
    get: (p, query) => call('GET', p, undefined, query),
    async find(p) {
      try {
        return await call('GET', p);
      } catch (err) {
        if (err instanceof HttpError && (err.status === 404 || err.status === 403)) return null;
        throw err;
      }
    },
    send: (method, p, body, query) => call(method, p, body, query),
  };
}
