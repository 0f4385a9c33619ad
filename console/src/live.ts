import { useEffect, useRef } from 'preact/hooks';
import { inWorkspace } from './workspace.ts';

/**
 * One connection to GET /v1/events/stream for the whole page. EventSource cannot send the
 * X-Console header the cookie path needs, so this reads the stream with fetch and reconnects
 * itself, sending Last-Event-ID so nothing committed in between is missed (even when nothing
 * had arrived yet: see resumePointOf).
 */
export interface LiveEvent {
  id: string;
  event: string;
  timestamp: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each event's own payload (parsed JSON), read by the listeners of that event
  data: Record<string, any>;
}

type Listener = (e: LiveEvent) => void;
const listeners = new Set<Listener>();
let running: AbortController | undefined;

/**
 * Follows one event stream (`path` under /v1, with its query) until `signal` aborts, reconnecting after
 * a drop with Last-Event-ID. `from` is an event id to start after; without it the stream starts at the
 * server's now.
 */
export async function followEvents(path: string, onEvent: Listener, signal: AbortSignal, from?: string) {
  let lastId = from;
  let delay = 500;
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { 'X-Console': '1', Accept: 'text/event-stream' };
      if (lastId) headers['Last-Event-ID'] = lastId;
      const res = await fetch(`/v1${path}`, { headers, credentials: 'same-origin', signal });
      if (res.status === 401) return;
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      delay = 500;
      lastId ??= resumePointOf(res);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const { id, event } = parseBlock(buf.slice(0, end));
          buf = buf.slice(end + 2);
          if (id) lastId = id;
          if (event) onEvent(event);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 10_000);
  }
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** The lowest event id of a millisecond (`evt_` + 10 time characters + zeros), as the server orders ids. */
export function eventIdAt(ms: number): string {
  let time = '';
  for (let n = Math.max(0, Math.floor(ms)), i = 0; i < 10; i++, n = Math.floor(n / 32)) time = CROCKFORD[n % 32] + time;
  return `evt_${time}${'0'.repeat(16)}`;
}

/**
 * Where a reconnect resumes when no event has arrived yet. A stream opened without Last-Event-ID
 * starts at the server's "now" and sends no id of its own, so the first connection's start is
 * taken from its response's Date header (the server's clock, rounded down to the second; at most
 * a second of earlier events comes again, which every listener tolerates). Without a Date header,
 * this page's clock less a minute stands in.
 */
function resumePointOf(res: Response): string {
  const date = Date.parse(res.headers.get('date') ?? '');
  return eventIdAt(Number.isNaN(date) ? Date.now() - 60_000 : date);
}

function parseBlock(block: string): { id?: string; event?: LiveEvent } {
  let data = '';
  let id: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith('data:')) data += line.slice(5).trimStart();
    // An `id:` counts even on a block without data, as in EventSource.
    else if (line.startsWith('id:') && line.slice(3).trim()) id = line.slice(3).trim();
  }
  if (!data) return { id };
  const event = JSON.parse(data) as LiveEvent;
  return { id: event.id, event };
}

/** The console's one live connection, to the workspace in use (the shell restarts it on a switch). */
export function startLive() {
  if (running) return;
  running = new AbortController();
  void followEvents(
    inWorkspace('GET', '/events/stream', undefined).path,
    (e) => {
      for (const l of [...listeners]) l(e);
    },
    running.signal,
  );
}

export function stopLive() {
  running?.abort();
  running = undefined;
}

/**
 * Calls `fn` for every event whose name is in `names` (latest `fn` each time; no resubscribe per
 * render). With `coalesceMs`, a burst of events (an agent writing fast) makes one call at its end.
 */
export function useLive(names: string[], fn: Listener, coalesceMs = 0) {
  const ref = useRef(fn);
  ref.current = fn;
  const key = names.join(',');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const l: Listener = (e) => {
      if (!names.includes(e.event)) return;
      if (!coalesceMs) return ref.current(e);
      clearTimeout(timer);
      timer = setTimeout(() => ref.current(e), coalesceMs);
    };
    listeners.add(l);
    return () => {
      clearTimeout(timer);
      listeners.delete(l);
    };
    // Subscribed again only when the event names change (`key`); the handler is read through `ref`.
  }, [key]);
}
