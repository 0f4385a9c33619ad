import { useCallback, useEffect, useState } from 'preact/hooks';
import { inWorkspace } from './workspace.ts';

/** Talks to the public REST API with the session cookie; X-Console: 1 is the server's CSRF check. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an error answer's parsed JSON, read by the fields a caller knows
    readonly body: Record<string, any> = {},
  ) {
    super(message);
  }
}

let onSignedOut: () => void = () => {};
export const setSignedOutHandler = (fn: () => void) => {
  onSignedOut = fn;
};

/** Ids are `prefix_` + 26 lower-case Crockford base32 characters (src/ids.ts). Anything else from the URL is refused. */
const ID_FORMAT = /^[a-z]{2,3}_[0-9a-hjkmnp-tv-z]{26}$/;
export const isId = (value: unknown, prefix?: string): value is string => typeof value === 'string' && ID_FORMAT.test(value) && (prefix === undefined || value.startsWith(`${prefix}_`));

/** A path template whose every interpolated value is one encoded segment: path`/sheets/${id}` cannot be steered by `?`, `/` or `..`. */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}

/** A /v1 request (lists and creates in the workspace the switcher chose, see workspace.ts) or a /console/ one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON answers: a caller that names no T reads the fields it knows
export async function api<T = any>(method: string, path: string, bodyIn?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const ownRoute = path.startsWith('/console/');
  const scoped = ownRoute ? { path, body: bodyIn } : inWorkspace(method, path, bodyIn);
  const url = ownRoute ? path : `/v1${scoped.path}`;
  const body = scoped.body;
  const headers: Record<string, string> = { 'X-Console': '1', Accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({ success: false, error: `HTTP ${res.status}`, code: 'internal_error' }));
  if (!res.ok || data.success === false) {
    if (res.status === 401 && !ownRoute) onSignedOut();
    throw new ApiError(data.error ?? `HTTP ${res.status}`, res.status, data.code ?? 'error', data);
  }
  return data as T;
}

/** Saves a file the API answers (a zip, an export) under the name its Content-Disposition gives. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await fetch(`/v1${path}`, { headers: { 'X-Console': '1' }, credentials: 'same-origin' });
  if (!res.ok) {
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    if (res.status === 401) onSignedOut();
    throw new ApiError(data.error ?? `HTTP ${res.status}`, res.status, data.code ?? 'error', data);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Loads once per change of `deps`; `reload` refetches. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (err: Error) => live && setState({ error: err.message, loading: false }),
    );
    return () => {
      live = false;
    };
    // Deliberately the caller's deps, not `fn`: a new closure every render, run again only when deps (or tick) change.
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
