import { after, before } from 'node:test';
import type { Dialect } from '../src/db/types.js';
import { startServer, type TestServer } from './helpers.js';

export type Plan = 'free' | 'pro' | 'business';
export interface TestUser {
  userId: string;
  key: string;
  /** The account's personal workspace (not `workspaceId`: a Caller's is the workspace its key is restricted to). */
  personalWorkspace: string;
}

type StartOptions = NonNullable<Parameters<typeof startServer>[1]>;

export interface ServerFixture<U extends string> {
  /** The server under test; reachable from the fixture's before hook on. */
  s: TestServer;
  /** One account per name, each on its plan, with its first key. */
  users: Record<U, TestUser>;
  /** Runs `fn` in the after hook before the server closes (clients, streams, timers the file opened). */
  beforeClose(fn: () => unknown): void;
}

/**
 * The set-up most test files share, for the enclosing describe: a before hook starts the server (the
 * options of startServer) and creates `users`; an after hook closes it. Register it first in the
 * describe, so the file's own hooks run after the server is up.
 *
 * The server and the users are returned at describe time, before they exist, so they are stand-ins
 * that reach the real ones once the before hook ran: tests keep writing `s.req(...)` and `alice.key`.
 * Touching them earlier throws rather than reading undefined.
 *
 * `lateOptions`: options known only once an earlier before hook ran (a fake AI service's URL, say);
 * merged over the others when the server starts. Register that hook before calling useServer.
 */
export function useServer<U extends string = never>(dialect: Dialect, opts: StartOptions & { users?: Record<U, Plan>; lateOptions?: () => StartOptions } = {}): ServerFixture<U> {
  const { users: plans = {} as Record<U, Plan>, lateOptions, ...serverOpts } = opts;
  let server: TestServer | undefined;
  const created: Partial<Record<U, TestUser>> = {};
  const closers: (() => unknown)[] = [];

  before(async () => {
    const late = lateOptions?.() ?? {};
    server = await startServer(dialect, { ...serverOpts, ...late, env: { ...serverOpts.env, ...late.env } });
    for (const [name, plan] of Object.entries(plans) as [U, Plan][]) created[name] = await server.user(plan);
  });
  after(async () => {
    try {
      for (const close of closers) await close();
    } finally {
      await server?.close();
    }
  });

  const users = Object.fromEntries(Object.keys(plans).map((name) => [name, standIn(`user ${name}`, () => created[name as U])]));
  return { s: standIn('test server', () => server), users: users as Record<U, TestUser>, beforeClose: (fn) => void closers.push(fn) };
}

/** An object forwarding every read to `get()`, which must have been filled in by then. */
function standIn<T extends object>(what: string, get: () => T | undefined): T {
  const target = () => get() ?? fail(`${what} used before the fixture's before hook started it`);
  return new Proxy({} as T, {
    get: (_, p) => Reflect.get(target(), p),
    has: (_, p) => Reflect.has(target(), p),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, p) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), p);
      return d && { ...d, configurable: true };
    },
  });
}

function fail(message: string): never {
  throw new Error(message);
}
