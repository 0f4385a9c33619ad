import type { DeliveriesTable } from '../db/types.js';

/** A delivery leased to one worker, with what sending it needs (the queue hands these out, the recorder writes their results). */
export interface ClaimedDelivery extends DeliveriesTable {
  url: string;
  secret_enc: string;
  webhook_status: 'enabled' | 'disabled';
  plan: string;
  /** The claim token written to claimed_by. */
  token: string;
}

/** The event of POST /webhooks/{id}/test: tried once, never retried, never disables its webhook. */
export const TEST_EVENT = 'webhook.test';
