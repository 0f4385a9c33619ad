import { encodeTime } from 'ulid';
import { outboxEnvelope } from '../../events/envelope.js';
import type { WorkspaceFeeds, FeedMember, OutboxRow } from './workspace-feed.js';

export interface StreamedEvent {
  id: string;
  event: string;
  /** The same JSON body a webhook delivery carries ({event, timestamp, data}), plus the id (src/events/envelope.ts). */
  body: string;
}

export interface EventCursor {
  /** Blocks, then returns the events committed after the cursor (possibly none when it ends). */
  next(): Promise<StreamedEvent[]>;
}

/** The lowest id of a millisecond: `evt_` + time + zeros, so `id > cursorAt(t)` means "made at t or later". */
export const cursorAt = (ms: number) => `evt_${encodeTime(Math.max(0, ms), 10).toLowerCase()}${'0'.repeat(16)}`;

// A shared read's rows go to every live stream of the account: each row is serialized once for all.
const serialized = new WeakMap<OutboxRow, StreamedEvent>();
function toStreamed(r: OutboxRow): StreamedEvent {
  let e = serialized.get(r);
  if (!e) {
    e = { id: r.id, event: r.event, body: outboxEnvelope(r, { withId: true }) };
    serialized.set(r, e);
  }
  return e;
}

export interface CursorDeps {
  /** The workspace whose events the stream carries (its feed's key). */
  key: string;
  /** Sends ids strictly after this one. */
  floor: string;
  /** Only these events; undefined: all. */
  events?: readonly string[];
  /** Starts in its account's feed (a new stream) rather than catching up alone (a resumed one). */
  live: boolean;
  feeds: WorkspaceFeeds;
  page: number;
  /** The late-commit horizon now (an id): ids past it may still be joined by lower ones committing late. */
  lag(): string;
  now(): number;
  /** This cursor's own read: rows of its events with id > from, oldest first, at most `limit`. */
  readAlone(from: string, limit: number): Promise<OutboxRow[]>;
  signal: AbortSignal;
}

/**
 * One stream's position. Live, its account's feed offers it each shared read; catching up (resumed,
 * or behind because its client reads slowly) it reads alone until a read comes back short, then
 * joins the feed again. Ids made before their transaction commits can commit out of order, so every
 * read looks back to the late-commit horizon and skips the ids already taken.
 */
export function createStreamCursor(deps: CursorDeps): EventCursor {
  const { key, floor, feeds, page, signal } = deps;
  const wanted = deps.events ? new Set(deps.events) : undefined;
  let newest = floor;
  /** Ids taken past the late-commit horizon: a later read looks back over them and skips them. */
  const seen = new Set<string>();
  const queue: StreamedEvent[] = [];
  let live = deps.live;
  let failure: { err: unknown } | undefined;
  let resolveWait: (() => void) | undefined;

  const from = (horizon: string) => {
    const upTo = newest < horizon ? newest : horizon;
    return floor > upTo ? floor : upTo;
  };
  function take(r: OutboxRow) {
    seen.add(r.id);
    if (r.id > newest) newest = r.id;
    if (!wanted || wanted.has(r.event)) queue.push(toStreamed(r));
  }
  const forget = (horizon: string) => {
    for (const id of seen) if (id <= horizon && id <= newest) seen.delete(id);
  };

  const member: FeedMember = {
    from,
    seenCount: () => seen.size,
    offer(rows, horizon) {
      if (queue.length >= page) {
        live = false; // its client is slow: it reads alone from its own position once it has sent these
        return false;
      }
      const start = from(horizon);
      for (const r of rows) if (r.id > start && !seen.has(r.id)) take(r);
      forget(horizon);
      if (queue.length > 0) resolveWait?.();
      return true;
    },
    fail(err) {
      failure = { err };
      live = false;
      resolveWait?.();
    },
  };

  /** True when the read was full, so more may be waiting. */
  async function catchUp(): Promise<boolean> {
    const at = deps.now();
    const horizon = deps.lag();
    const limit = page + seen.size;
    const rows = await deps.readAlone(from(horizon), limit);
    for (const r of rows) if (!seen.has(r.id)) take(r);
    const full = rows.length >= limit;
    // Every event it wants up to this read came back: older ids need no second look.
    if (!full && cursorAt(at) > newest) newest = cursorAt(at);
    forget(horizon);
    return full;
  }

  if (live) feeds.join(key, member);
  signal.addEventListener(
    'abort',
    () => {
      feeds.leave(key, member);
      resolveWait?.();
    },
    { once: true },
  );

  return {
    async next() {
      for (;;) {
        if (failure) throw failure.err;
        if (queue.length > 0) return queue.splice(0);
        if (signal.aborted) return [];
        if (!live) {
          const behind = await catchUp();
          if (!behind && !signal.aborted && !failure) {
            live = true;
            feeds.join(key, member);
          }
          continue;
        }
        await new Promise<void>((resolve) => {
          resolveWait = () => {
            resolveWait = undefined;
            resolve();
          };
        });
      }
    },
  };
}
