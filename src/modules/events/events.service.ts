import { encodeTime } from 'ulid';
import type { Clock } from '../../clock.js';
import { listenForOutbox } from '../../db/dialect.js';
import type { Db, Dialect } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { EVENT_NAMES, type EventName } from '../../events/catalog.js';
import type { Outbox } from '../../events/outbox.js';
import { EVENT_READ_SCOPES, eventScopeError, readableEvents, type Granted } from '../api-keys/scopes.js';

/** How far back Last-Event-ID can reach. Older ids resume from 24 h ago. */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Event ids are made when the event is written, before its transaction commits, so on PostgreSQL a
 * slower transaction can commit an id lower than one already sent. Each read looks this far back
 * past the newest id sent and skips ids it already sent. SQLite writers are serialized (BEGIN
 * IMMEDIATE), so only two processes' ids made in the same instant can commit out of order there.
 */
const LATE_COMMIT_MS = { postgres: 5000, sqlite: 1000 } as const;
const PAGE = 200;
const EVENT_ID = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;

export interface StreamedEvent {
  id: string;
  event: string;
  /** The same JSON body a webhook delivery carries ({event, timestamp, data}), plus the id. */
  body: string;
}

export interface EventCursor {
  /** Blocks, then returns the events committed after the cursor (possibly none when woken without news). */
  next(): Promise<StreamedEvent[]>;
}

/** The lowest id of a millisecond: `evt_` + time + zeros, so `id > cursorAt(t)` means "made at t or later". */
const cursorAt = (ms: number) => `evt_${encodeTime(Math.max(0, ms), 10).toLowerCase()}${'0'.repeat(16)}`;

export function createEventsService(deps: { db: Db; outbox: Outbox; clock: Clock; dialect: Dialect; databaseUrl?: string; pollMs?: number; heartbeatMs?: number; logger?: { warn(o: object, m: string): void } }) {
  const { db, outbox, clock } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const waiters = new Set<() => void>();
  let streams = 0;
  let unlisten: Promise<() => Promise<void>> | undefined;

  const wakeAll = () => {
    for (const w of [...waiters]) w();
  };
  outbox.onCommitted(wakeAll);

  /** Other processes' commits on PostgreSQL arrive by NOTIFY (the webhook workers' channel); the poll covers the rest. */
  function listen() {
    if (unlisten || deps.dialect !== 'postgres' || !deps.databaseUrl) return;
    unlisten = listenForOutbox(deps.databaseUrl, wakeAll, (err) => deps.logger?.warn({ err }, 'event stream LISTEN failed; polling only'));
    unlisten.catch((err) => {
      deps.logger?.warn({ err }, 'event stream LISTEN failed; polling only');
      unlisten = undefined;
    });
  }

  function parseFilter(events: string | undefined, known: readonly string[]): EventName[] | undefined {
    if (events === undefined || events.trim() === '') return undefined;
    const names = [...new Set(events.split(',').map((s) => s.trim()).filter(Boolean))];
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length) throw new AppError('invalid_request', `events: unknown event name(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return names as EventName[];
  }

  /**
   * The events a credential's stream carries: only those its scopes may read (src/modules/api-keys/
   * scopes.ts EVENT_READ_SCOPES). An events= filter naming one it may not read, or a credential that
   * may read none, is a 403 insufficient_scope. Undefined: every event, no filter.
   */
  function forScopes(granted: Granted | undefined, filter: EventName[] | undefined): EventName[] | undefined {
    const readable = readableEvents(granted);
    const denied = filter?.find((e) => !readable.includes(e));
    if (denied) throw eventScopeError(denied);
    if (readable.length === 0) {
      const options = [...new Set(Object.values(EVENT_READ_SCOPES).flat())];
      throw new AppError('insufficient_scope', `The event stream needs a scope that reads events: ${options.join(', ')}`, undefined, { required_scope: options[0] });
    }
    return filter ?? (readable.length === EVENT_NAMES.length ? undefined : readable);
  }

  /**
   * A cursor over one account's events. Without Last-Event-ID it starts now; with one, strictly after
   * it (but no further back than 24 h). `signal` ends any wait at once.
   */
  function open(userId: string, opts: { lastEventId?: string; events?: EventName[]; signal: AbortSignal }): EventCursor {
    const { lastEventId, events, signal } = opts;
    if (lastEventId !== undefined && !EVENT_ID.test(lastEventId)) {
      throw new AppError('invalid_request', 'Last-Event-ID must be an event id (evt_ followed by 26 characters)');
    }
    const now = clock.now().getTime();
    const oldest = cursorAt(now - RESUME_WINDOW_MS);
    const floor = lastEventId ? (lastEventId > oldest ? lastEventId : oldest) : cursorAt(now);
    let newest = floor;
    const sent = new Set<string>();
    let woken = true; // read at once on the first call

    async function read(): Promise<StreamedEvent[]> {
      const lag = cursorAt(clock.now().getTime() - LATE_COMMIT_MS[deps.dialect]);
      const from = [floor, newest < lag ? newest : lag].sort()[1];
      let q = db.selectFrom('outbox').select(['id', 'event', 'data', 'created_at']).where('user_id', '=', userId).where('id', '>', from);
      if (events) q = q.where('event', 'in', events);
      const rows = await q.orderBy('id').limit(PAGE + sent.size).execute();
      const out: StreamedEvent[] = [];
      for (const r of rows) {
        if (sent.has(r.id)) continue;
        sent.add(r.id);
        if (r.id > newest) newest = r.id;
        out.push({ id: r.id, event: r.event, body: JSON.stringify({ id: r.id, event: r.event, timestamp: r.created_at, data: JSON.parse(r.data) }) });
      }
      for (const id of sent) if (id <= lag && id <= newest) sent.delete(id);
      return out;
    }

    // A commit can land while a read is running: the flag keeps that wake-up for the next wait.
    let resolveWait: (() => void) | undefined;
    const poke = () => {
      woken = true;
      resolveWait?.();
    };
    function wait(): Promise<void> {
      if (woken || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(poke, pollMs);
        resolveWait = () => {
          clearTimeout(timer);
          resolveWait = undefined;
          resolve();
        };
      });
    }

    streams++;
    waiters.add(poke);
    listen();
    signal.addEventListener('abort', () => {
      streams--;
      waiters.delete(poke);
      resolveWait?.();
    }, { once: true });
    return {
      async next() {
        await wait();
        woken = false;
        if (signal.aborted) return [];
        const got = await read();
        if (got.length >= PAGE) woken = true; // more may be waiting: read again without sleeping
        return got;
      },
    };
  }

  return {
    parseFilter,
    forScopes,
    open,
    /** How often an open stream sends a heartbeat comment (EVENT_STREAM_HEARTBEAT_MS, default 15 s). */
    heartbeatMs: deps.heartbeatMs ?? 15_000,
    /** Streams open in this process (tests check that closed streams leave nothing behind). */
    openStreams: () => streams,
    pendingWaits: () => waiters.size,
    async close() {
      const u = unlisten;
      unlisten = undefined;
      await (await u?.catch(() => undefined))?.();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
