import type { Clock } from '../../clock.js';
import { listenForOutbox } from '../../db/postgres/outbox-listen.js';
import type { Db, Dialect } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { EVENT_NAMES, type EventName } from '../../events/catalog.js';
import type { Outbox } from '../../events/outbox.js';
import { decodeWake } from '../../events/wake-payload.js';
import { EVENT_READ_SCOPES, eventScopeError, readableEvents } from '../../events/event-scopes.js';
import type { Granted } from '../../auth/scopes.js';
import type { Caller, WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { createWorkspaceFeeds, type OutboxRow } from './workspace-feed.js';
import { createStreamCursor, cursorAt, type EventCursor } from './stream-cursor.js';
import { createStreamLimits, type StreamCaps } from './stream-limits.js';

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

export interface EventsDeps {
  db: Db;
  outbox: Outbox;
  access: Pick<WorkspaceAccess, 'workspaceFor'>;
  clock: Clock;
  dialect: Dialect;
  databaseUrl?: string;
  pollMs?: number;
  heartbeatMs?: number;
  caps?: StreamCaps;
  /** Counts each outbox query: `shared` serves every live stream of an workspace, `catch_up` one stream resuming or behind. */
  onRead?: (kind: 'shared' | 'catch_up') => void;
  logger?: { warn(o: object, m: string): void };
}

/**
 * Who opens a stream: the workspace whose events it carries (see `streamKey`), and for the caps the
 * credential (API key or OAuth grant) and the client address.
 */
export interface StreamOpener {
  workspaceId: string;
  credentialId: string;
  address: string;
}

export function createEventsService(deps: EventsDeps) {
  const { db, outbox, access, clock } = deps;
  const limits = createStreamLimits(deps.caps ?? { perCredential: 10, perAddress: 50 });
  let streams = 0;
  let reads = 0;
  let unlisten: Promise<() => Promise<void>> | undefined;

  const lag = () => cursorAt(clock.now().getTime() - LATE_COMMIT_MS[deps.dialect]);
  function query(workspaceId: string, from: string, limit: number, events?: readonly EventName[]): Promise<OutboxRow[]> {
    let q = db.selectFrom('outbox').select(['id', 'event', 'data', 'created_at']).where('workspace_id', '=', workspaceId).where('id', '>', from);
    if (events) q = q.where('event', 'in', events);
    return q.orderBy('id').limit(limit).execute();
  }
  const feeds = createWorkspaceFeeds({
    page: PAGE,
    pollMs: deps.pollMs ?? 1000,
    lag,
    read(workspaceId, from, limit) {
      reads++;
      deps.onRead?.('shared');
      return query(workspaceId, from, limit);
    },
  });

  // A commit wakes only the feeds of the workspaces it wrote events for (all of them when it does not say).
  const woken = (workspaces: readonly string[] | undefined) => (workspaces ? workspaces.forEach(feeds.wake) : feeds.wakeAll());
  outbox.onCommitted((_, commit) => woken(commit.workspaces));

  /** Other processes' commits on PostgreSQL arrive by NOTIFY, naming their workspaces; the poll covers the rest. */
  function listen() {
    if (unlisten || deps.dialect !== 'postgres' || !deps.databaseUrl) return;
    const onNotify = (payload: string) => {
      const { origin, workspaces } = decodeWake(payload);
      if (origin !== outbox.origin) woken(workspaces); // this process's own commits woke it already
    };
    // Reconnects by itself after PostgreSQL restarts; then every feed reads once what it may have missed.
    unlisten = listenForOutbox(deps.databaseUrl, onNotify, {
      onLost: (err) => deps.logger?.warn({ err }, 'event stream LISTEN connection lost; polling until it is back'),
      onBack: () => feeds.wakeAll(),
    });
    unlisten.catch((err) => {
      deps.logger?.warn({ err }, 'event stream LISTEN failed; polling only');
      unlisten = undefined;
    });
  }

  function parseFilter(events: string | undefined, known: readonly string[]): EventName[] | undefined {
    if (events === undefined || events.trim() === '') return undefined;
    const names = [
      ...new Set(
        events
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length) throw new AppError('invalid_request', `events: unknown event name(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return names as EventName[];
  }

  /**
   * The events a credential's stream carries: only those its scopes may read (src/events/
   * event-scopes.ts EVENT_READ_SCOPES). An events= filter naming one it may not read, or a credential that
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
   * A cursor over one workspace's events. Without Last-Event-ID it starts now, in its workspace's feed;
   * with one, strictly after it (but no further back than 24 h), catching up alone first. Takes one
   * of the opener's stream slots (429 past the caps), freed when `signal` aborts, which also ends
   * any wait at once.
   */
  function open(opener: StreamOpener, opts: { lastEventId?: string; events?: EventName[]; signal: AbortSignal }): EventCursor {
    const { workspaceId } = opener;
    const { lastEventId, events, signal } = opts;
    if (lastEventId !== undefined && !EVENT_ID.test(lastEventId)) {
      throw new AppError('invalid_request', 'Last-Event-ID must be an event id (evt_ followed by 26 characters)');
    }
    const release = limits.take(opener.credentialId, opener.address);
    const now = clock.now().getTime();
    const oldest = cursorAt(now - RESUME_WINDOW_MS);
    const floor = lastEventId ? (lastEventId > oldest ? lastEventId : oldest) : cursorAt(now);
    streams++;
    listen();
    signal.addEventListener(
      'abort',
      () => {
        streams--;
        release();
      },
      { once: true },
    );
    return createStreamCursor({
      key: workspaceId,
      floor,
      events,
      live: lastEventId === undefined,
      feeds,
      page: PAGE,
      lag,
      now: () => clock.now().getTime(),
      readAlone(from, limit) {
        reads++;
        deps.onRead?.('catch_up');
        return query(workspaceId, from, limit, events);
      },
      signal,
    });
  }

  return {
    parseFilter,
    forScopes,
    /**
     * The workspace whose events a stream of `workspaceId` carries: a team workspace's needs a member
     * (records.read); without it the caller's personal events (or those of the workspace its key is
     * restricted to). Asked again while the stream runs, so a removed member's stream ends.
     */
    streamKey: (caller: Caller, workspaceId: string | undefined) => access.workspaceFor(caller, workspaceId, 'records.read'),
    open,
    /** How often an open stream sends a heartbeat comment (EVENT_STREAM_HEARTBEAT_MS, default 15 s). */
    heartbeatMs: deps.heartbeatMs ?? 15_000,
    /** Streams open in this process (tests check that closed streams leave nothing behind). */
    openStreams: () => streams,
    /** Account feeds and live streams in them still held (0 once every stream closed). */
    pendingWaits: () => feeds.held(),
    /** Outbox queries made for streams so far (also the metric event_stream_outbox_reads_total). */
    outboxReads: () => reads,
    async close() {
      const u = unlisten;
      unlisten = undefined;
      await (
        await u?.catch(() => undefined)
      )?.();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
