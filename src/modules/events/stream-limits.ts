import { AppError } from '../../errors.js';

export interface StreamCaps {
  /** EVENT_STREAM_MAX_PER_CREDENTIAL: open streams of one API key or OAuth grant (a console session counts as its key). */
  perCredential: number;
  /** EVENT_STREAM_MAX_PER_ADDRESS: open streams from one client address (after TRUST_PROXY). */
  perAddress: number;
}

/**
 * A stream ends when its client leaves, which cannot be foreseen; this is how long a refused client
 * should wait before it tries again.
 */
export const STREAM_RETRY_AFTER_S = 30;

/**
 * Open event streams per credential and per client address, in this process. An open stream costs a
 * connection and a share of every read of its account, and plan limits count only the request that
 * opens it, so without a cap one account could hold any number.
 */
export function createStreamLimits(caps: StreamCaps) {
  const byCredential = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string, by: number) => {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  };
  const refuse = (message: string) => new AppError('rate_limited', message, { 'retry-after': String(STREAM_RETRY_AFTER_S) });

  return {
    /** Takes a slot for a new stream (429 rate_limited with Retry-After past either cap); the function returned frees it. */
    take(credentialId: string, address: string): () => void {
      if ((byCredential.get(credentialId) ?? 0) >= caps.perCredential) {
        throw refuse(`This credential already has ${caps.perCredential} event streams open (EVENT_STREAM_MAX_PER_CREDENTIAL); close one and retry`);
      }
      if ((byAddress.get(address) ?? 0) >= caps.perAddress) {
        throw refuse(`This client address already has ${caps.perAddress} event streams open (EVENT_STREAM_MAX_PER_ADDRESS); close one and retry`);
      }
      add(byCredential, credentialId, 1);
      add(byAddress, address, 1);
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        add(byCredential, credentialId, -1);
        add(byAddress, address, -1);
      };
    },
  };
}
export type StreamLimits = ReturnType<typeof createStreamLimits>;
