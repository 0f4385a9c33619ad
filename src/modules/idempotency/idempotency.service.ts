import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { SecretBox } from '../../webhook-delivery/secrets.js';
import { AppError, invalid } from '../../errors.js';
import type { AuthContext } from '../../auth/context.js';
import type { IdempotencyOwner, IdempotencyRepo } from './idempotency.repo.js';

export type { IdempotencyOwner };

/** The credential a key belongs to: keyId is the API key, or the OAuth grant (a console session: the key that opened it). */
export const idempotencyOwner = (auth: Pick<AuthContext, 'userId' | 'keyId'>): IdempotencyOwner => ({ userId: auth.userId, credentialId: auth.keyId });

/** How long a finished answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * A claim whose request never finished (its process died between claim and answer) blocks its key
 * with 409 for this long, then the key may run again. Longer than any request (spark runs included).
 */
export const ABANDONED_CLAIM_MS = 10 * 60_000;

export const IDEMPOTENCY_KEY_RULE = '1 to 255 printable ASCII characters (no spaces or control characters)';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: unknown, name: string): string {
  if (typeof key !== 'string' || !VALID_KEY.test(key)) throw invalid(`${name} must be ${IDEMPOTENCY_KEY_RULE}`);
  return key;
}

/** What makes two uses of a key "the same request": method, path with query, and the JSON body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

/** A request that won the key: it runs, then completes (2xx, kept) or releases (anything else, forgotten). */
export interface IdempotencyClaim {
  kind: 'run';
  complete(status: number, response: string): Promise<void>;
  release(): Promise<void>;
}
/** A repeat of a finished request: its first answer. */
export interface IdempotencyReplay {
  kind: 'replay';
  status: number;
  response: string;
}

const MAX_CLAIM_ATTEMPTS = 3;

/**
 * `box` seals stored answers with the server key: some hold a secret shown only once (a new API key,
 * a webhook's signing secret), which must not sit in the database in the clear for 24 hours.
 */
export function createIdempotencyService(deps: { repo: IdempotencyRepo; clock: Clock; box: SecretBox }) {
  const { repo, clock, box } = deps;

  function unseal(sealed: string): string | undefined {
    try {
      return box.decrypt(sealed);
    } catch {
      return undefined; // sealed under another server key (SECRET_KEY changed): cannot be replayed
    }
  }

  return {
    /**
     * Claims the key for this request, or answers how a repeat must be treated (replay, 409 or 422).
     * Keys are the credential's own: another credential of the account using the same key and body
     * runs its own request (under its own scopes), never receiving this one's answer, which may hold
     * what only this credential could get (a new key with its scopes, a webhook's secret).
     */
    async begin(owner: IdempotencyOwner, key: string, fingerprint: string): Promise<IdempotencyClaim | IdempotencyReplay> {
      for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
        const now = clock.now();
        const createdAt = now.toISOString();
        const row = {
          user_id: owner.userId,
          credential_id: owner.credentialId,
          key,
          fingerprint,
          status: null,
          response: null,
          created_at: createdAt,
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        };
        if (await repo.claim(row)) {
          return {
            kind: 'run',
            complete: (status, response) => repo.complete(owner, key, createdAt, status, box.encrypt(response)),
            release: () => repo.release(owner, key, createdAt),
          };
        }
        const held = await repo.find(owner, key);
        if (!held) continue; // released or purged in between: claim again
        const abandoned = held.status === null && Date.parse(held.created_at) + ABANDONED_CLAIM_MS <= now.getTime();
        if (held.expires_at <= createdAt || abandoned) {
          await repo.release(owner, key, held.created_at);
          continue;
        }
        if (held.fingerprint !== fingerprint) {
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used within 24 hours for a different request (method, path or body); use a new key');
        }
        if (held.status === null || held.response === null) break;
        const response = unseal(held.response);
        if (response === undefined) {
          await repo.release(owner, key, held.created_at);
          continue;
        }
        return { kind: 'replay', status: held.status, response };
      }
      throw new AppError('idempotency_key_in_progress', 'A request with this Idempotency-Key is still running; retry when it has finished');
    },

    /** Deletes keys past their 24 hours. */
    purgeExpired() {
      return repo.purgeExpired(clock.now().toISOString());
    },
  };
}
export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
