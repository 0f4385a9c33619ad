import type { OutboxEvent } from '../../events/envelope.js';

/** An outbox row as the event stream reads it. */
export type OutboxRow = OutboxEvent;

/** One live stream, as its workspace's feed sees it. */
export interface FeedMember {
  /** The id after which this member reads (exclusive), given the late-commit horizon of this read. */
  from(lag: string): string;
  /** How many ids past `from` the member has already taken: the page must reach past them. */
  seenCount(): number;
  /** This read's rows. False: the member still holds a page it has not sent and leaves (it catches up alone). */
  offer(rows: OutboxRow[], lag: string): boolean;
  /** The read failed: the member's stream ends (its client reconnects with Last-Event-ID). */
  fail(err: unknown): void;
}

export interface FeedDeps {
  /** One workspace's rows with id > from, oldest first, at most `limit`. */
  read(workspaceId: string, from: string, limit: number): Promise<OutboxRow[]>;
  /** The current late-commit horizon (an id); see LATE_COMMIT_MS in events.service.ts. */
  lag(): string;
  page: number;
  pollMs: number;
}

interface Feed {
  members: Set<FeedMember>;
  reading: boolean;
  again: boolean;
  poll: NodeJS.Timeout;
}

/**
 * The live event streams of each workspace in this process share one reader. A wake (a commit that
 * wrote this workspace's events, here or, by NOTIFY, in another process; or the poll) makes one
 * outbox query for all of them, from the lowest cursor among them, and each member takes the rows
 * its own cursor has not passed. Streams of other workspaces do not read at all. Reads of one workspace
 * never overlap: a wake during a read makes one more read after it.
 */
export function createWorkspaceFeeds(deps: FeedDeps) {
  const feeds = new Map<string, Feed>();

  function drop(workspaceId: string, feed: Feed) {
    clearInterval(feed.poll);
    if (feeds.get(workspaceId) === feed) feeds.delete(workspaceId);
  }

  async function run(workspaceId: string, feed: Feed) {
    feed.reading = true;
    try {
      while (feed.again && feed.members.size > 0) {
        feed.again = false;
        // Members that join during the read are not offered its rows (it may start past their cursor);
        // joining wakes the feed, so they get the next read.
        const members = [...feed.members];
        const lag = deps.lag();
        const from = members.map((m) => m.from(lag)).reduce((a, b) => (b < a ? b : a));
        const limit = deps.page + Math.max(...members.map((m) => m.seenCount()));
        try {
          const rows = await deps.read(workspaceId, from, limit);
          for (const m of members) if (feed.members.has(m) && !m.offer(rows, lag)) feed.members.delete(m);
          if (rows.length >= limit) feed.again = true; // more are waiting: read on without a wake
        } catch (err) {
          for (const m of members) if (feed.members.delete(m)) m.fail(err);
        }
      }
    } finally {
      feed.reading = false;
      if (feed.members.size === 0) drop(workspaceId, feed);
    }
  }

  function wake(workspaceId: string) {
    const feed = feeds.get(workspaceId);
    if (!feed) return;
    feed.again = true;
    if (!feed.reading) void run(workspaceId, feed);
  }

  return {
    wake,
    wakeAll() {
      for (const workspaceId of feeds.keys()) wake(workspaceId);
    },
    /** Adds a caught-up stream; its first read comes at once. */
    join(workspaceId: string, member: FeedMember) {
      let feed = feeds.get(workspaceId);
      if (!feed) {
        const poll = setInterval(() => wake(workspaceId), deps.pollMs);
        poll.unref();
        feed = { members: new Set(), reading: false, again: false, poll };
        feeds.set(workspaceId, feed);
      }
      feed.members.add(member);
      wake(workspaceId);
    },
    leave(workspaceId: string, member: FeedMember) {
      const feed = feeds.get(workspaceId);
      if (!feed?.members.delete(member)) return;
      if (feed.members.size === 0) drop(workspaceId, feed); // a read in flight finds no member and stops
    },
    /** Feeds and their members still held (tests check that closed streams leave none). */
    held() {
      let n = feeds.size;
      for (const f of feeds.values()) n += f.members.size;
      return n;
    },
  };
}
export type WorkspaceFeeds = ReturnType<typeof createWorkspaceFeeds>;
