import { hash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { ApiKeysTable, Executor } from '../../db/types.js';
import { rowOwnedBy } from '../../db/owned.js';
import { AppError, invalid } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ApiKeysRepo } from './api-keys.repo.js';
import { approverEnded } from './approver.js';
import { workspaceRestriction, type AuthContext } from '../../auth/context.js';
import { credentialVisible, requireCredentialVisible, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { FULL_ACCESS, firstMissing, insufficientScope } from '../../auth/scopes.js';
import { newSecretToken } from '../../lib/secret-token.js';

export interface NewKeyOptions {
  scopes?: string[];
  expires_at?: string | null;
  /** The scopes of the credential issuing the key: a key never gets more than its issuer has. */
  issuer?: readonly string[];
  /** When the issuing credential expires: the key defaults to it and may not outlive it. */
  issuerExpiresAt?: string;
  /** The OAuth grant the issuing credential rests on: the key is linked to it and ends with it. */
  issuerGrant?: string;
  /** The one workspace the key reaches; absent: the issuer's (if it is restricted), null: every workspace. */
  workspace_id?: string | null;
  /** The workspace the issuing credential is restricted to: the key cannot reach beyond it. */
  issuerWorkspace?: string;
}

const KEY_FORMAT = /^sk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 12;
const TOUCH_INTERVAL_MS = 60_000;
/** Authenticated keys kept in memory at most (oldest out); each is a few hundred bytes. */
const MAX_KNOWN_KEYS = 10_000;
type KeyRow = NonNullable<Awaited<ReturnType<ApiKeysRepo['findByHash']>>>;

/** Keys carry 32 random bytes, so one fast SHA-256 is a safe at-rest hash (no dictionary to attack). */
export const hashKey = (key: string) => hash('sha256', key, 'hex');

export function publicKey(row: ApiKeysTable) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    status: row.status,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    scopes: parseScopes(row.scopes),
    expires_at: row.expires_at,
    workspace_id: row.workspace_id,
  };
}

export const parseScopes = (text: string): string[] => JSON.parse(text) as string[];

/**
 * A key's expiry: as asked (in the future), and never later than the issuing credential's, which is
 * also the default; otherwise a key made with an expiring credential would outlive it.
 */
function keyExpiry(opts: NewKeyOptions, now: Date): Date | null {
  const asked = opts.expires_at ? new Date(opts.expires_at) : null;
  if (asked && asked.getTime() <= now.getTime()) throw invalid('expires_at must be in the future');
  if (!opts.issuerExpiresAt) return asked;
  const limit = new Date(opts.issuerExpiresAt);
  if (opts.expires_at === undefined) return limit;
  if (!asked || asked.getTime() > limit.getTime()) {
    throw invalid(`expires_at must not be later than ${limit.toISOString()}, when the credential creating this key expires${asked ? '' : ' (null asks for a key that never expires)'}`);
  }
  return asked;
}

/** Checks that the key's maker may have a key restricted to a workspace (a member, within its own restriction). */
type KeyAccess = Pick<WorkspaceAccess, 'workspaceFor'>;

export function createApiKeysService(deps: { repo: ApiKeysRepo; clock: Clock; access: KeyAccess; onTouchError?: (err: unknown) => void }) {
  const { repo, clock, access } = deps;

  /** A key of the account; a credential restricted to a workspace sees only the keys restricted to the same one. */
  async function owned(caller: Caller, id: string) {
    const row = rowOwnedBy(await repo.findById(id), 'user_id', caller.userId, 'API key', id);
    requireCredentialVisible(caller, row, 'API key', id);
    return row;
  }

  /**
   * The workspace a new key is restricted to. The maker must be a member of it (any role: the key's
   * writes are still checked against the role on every request), and a maker restricted to one
   * workspace makes keys for that one only: by default, and a 403 for another or for none (null).
   */
  async function keyWorkspace(userId: string, opts: NewKeyOptions): Promise<string | null> {
    const wanted = opts.workspace_id === undefined ? opts.issuerWorkspace : opts.workspace_id;
    if (wanted === undefined) return null;
    if (wanted === null) {
      if (opts.issuerWorkspace) throw new AppError('forbidden', `this credential is restricted to workspace ${opts.issuerWorkspace}; it cannot make a key for every workspace`);
      return null;
    }
    await access.workspaceFor({ userId, workspaceId: opts.issuerWorkspace }, wanted, 'records.read');
    return wanted;
  }

  /**
   * The key and its account by hash. Keys that authenticated are kept in memory, each with the auth
   * generation read before it was looked up (migrations 019 and 031: moved by every change an
   * authentication could see, in any process), and used while the generation still reads the same:
   * one row read per event-loop turn instead of the key joined to its account, its grant and the
   * grant's approving key on every request. Unknown keys are not kept.
   */
  const known = new Map<string, { row: KeyRow; generation: number }>();
  async function lookup(hash: string, given: number | undefined): Promise<KeyRow | undefined> {
    const generation = given ?? (await generationThisTurn());
    const hit = known.get(hash);
    if (hit && hit.generation === generation) return hit.row;
    const row = await repo.findByHash(hash);
    if (row && generation !== undefined) {
      known.delete(hash);
      if (known.size >= MAX_KNOWN_KEYS) known.delete(known.keys().next().value!);
      known.set(hash, { row, generation });
    }
    return row;
  }

  /** What authentication reads from a key row, parsed once per row (a kept row serves many requests). */
  const parsedRows = new WeakMap<KeyRow, { scopes: string[]; expiresMs: number | undefined; lastUsedMs: number }>();
  function parsedRow(row: KeyRow) {
    let p = parsedRows.get(row);
    if (!p) {
      p = { scopes: parseScopes(row.scopes), expiresMs: row.expires_at ? Date.parse(row.expires_at) : undefined, lastUsedMs: row.last_used_at ? Date.parse(row.last_used_at) : -Infinity };
      parsedRows.set(row, p);
    }
    return p;
  }

  /**
   * Requests handled in the same turn of the event loop share one read of the generation (each read
   * is a read transaction of its own, ~6 µs of locking in a warm loop and several times that under
   * load). They had all arrived before the read was issued, so a change committed after it can be
   * ordered after them; a request arriving later is handled in a later turn and reads again.
   */
  let thisTurn: { value: Promise<number | undefined> } | undefined;
  function generationThisTurn(): Promise<number | undefined> {
    if (!thisTurn) {
      thisTurn = { value: generationRead() };
      setImmediate(() => (thisTurn = undefined));
    }
    return thisTurn.value;
  }

  /**
   * On PostgreSQL the read is a round trip, and under load a turn holds one or two requests, so it was a
   * second query for nearly every request. Now at most one read runs at a time: a request arriving while
   * one runs cannot use it (it was issued before the request arrived) and waits for the next, issued as
   * soon as the running one ends and shared by every request that arrived meanwhile.
   */
  let running: Promise<number | undefined> | undefined;
  let queued: Promise<number | undefined> | undefined;
  function generationRead(): Promise<number | undefined> {
    if (!running) return issueRead();
    const next = () => ((queued = undefined), issueRead());
    queued ??= running.then(next, next);
    return queued;
  }
  function issueRead(): Promise<number | undefined> {
    const current: Promise<number | undefined> = repo.authGeneration().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  }

  return {
    async create(userId: string, name: string, exec?: Executor, opts: NewKeyOptions = {}) {
      const scopes = opts.scopes?.length ? [...new Set(opts.scopes)] : [FULL_ACCESS];
      const missing = firstMissing(opts.issuer, scopes);
      if (missing) throw insufficientScope(missing);
      const now = clock.now();
      const expiresAt = keyExpiry(opts, now);
      const workspaceId = await keyWorkspace(userId, opts);
      const apiKey = newSecretToken('sk');
      const row: ApiKeysTable = {
        id: newId('key', now.getTime()),
        user_id: userId,
        name,
        prefix: apiKey.slice(0, PREFIX_LENGTH),
        key_hash: hashKey(apiKey),
        status: 'active',
        created_at: now.toISOString(),
        last_used_at: null,
        disabled_at: null,
        scopes: JSON.stringify(scopes),
        expires_at: expiresAt?.toISOString() ?? null,
        issued_by_grant: opts.issuerGrant ?? null,
        workspace_id: workspaceId,
      };
      await repo.insert(row, exec);
      return { id: row.id, name, api_key: apiKey, key: publicKey(row) };
    },

    async list(caller: Caller) {
      const rows = await repo.listByUser(caller.userId);
      return rows.filter((r) => credentialVisible(caller, r)).map(publicKey);
    },

    async disable(caller: Caller, id: string) {
      const row = await owned(caller, id);
      if (row.status !== 'disabled') await repo.disable(id, clock.now().toISOString());
      return { id, status: 'disabled' as const };
    },

    /** Whether this Bearer header's key authenticated in this process before (kept, whatever its generation): worth a read that assumes it will again. */
    isKnown(header: string): boolean {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      return match !== null && KEY_FORMAT.test(match[1]) && known.has(hashKey(match[1]));
    },

    /**
     * Resolves a Bearer header to its account; every failure is a 401 that says which. `generation`:
     * the auth generation as a statement issued after this request arrived read it alongside its own
     * rows (GET by id's hot route on PostgreSQL), used instead of a read of its own.
     */
    async authenticate(header: string | undefined, generation?: number): Promise<AuthContext> {
      if (!header) throw new AppError('unauthorized', 'Missing Authorization header; send Authorization: Bearer sk_...');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new AppError('unauthorized', 'Authorization header must be "Bearer sk_..."');
      const key = match[1];
      if (!KEY_FORMAT.test(key)) throw new AppError('unauthorized', 'Malformed API key; keys look like sk_ followed by 43 characters');
      const row = await lookup(hashKey(key), generation);
      if (!row) throw new AppError('unauthorized', 'Unknown API key');
      if (row.status !== 'active') throw new AppError('unauthorized', 'This API key has been disabled');
      const parsed = parsedRow(row);
      const now = clock.now().getTime();
      if (parsed.expiresMs !== undefined && parsed.expiresMs <= now) throw new AppError('unauthorized', 'This API key has expired');
      if (row.issued_by_grant) {
        if (row.grant_status !== 'active') throw new AppError('unauthorized', 'The connected app whose access created this API key was disconnected');
        const ended = approverEnded(row, new Date(now));
        if (ended) throw new AppError('unauthorized', `${ended}; this API key was made under it`);
      }
      if (now - parsed.lastUsedMs >= TOUCH_INTERVAL_MS) {
        const staleBefore = new Date(now - TOUCH_INTERVAL_MS).toISOString();
        const at = new Date(now).toISOString();
        repo.touch(row.id, at, staleBefore).catch((err) => deps.onTouchError?.(err));
        row.last_used_at = at; // the kept copy, so the next request does not touch again
        parsed.lastUsedMs = now;
      }
      return {
        userId: row.user_id,
        plan: row.plan,
        keyId: row.id,
        scopes: parsed.scopes,
        actor: { type: 'api_key', id: row.id, name: row.name },
        ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
        ...(row.issued_by_grant ? { grantId: row.issued_by_grant } : {}),
        ...workspaceRestriction(row.workspace_id),
      };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
