/**
 * The JSON an event goes out in, built only here. A webhook delivery's body is
 * `{"event","timestamp","data"}` (those exact bytes are signed); the event stream's `data:` line is
 * the same body with the event id first. Key order is part of both contracts: receivers verify the
 * signature over these bytes, and stream clients were told the data line is the webhook body plus the id.
 */
export interface EventEnvelope {
  /** Only on the event stream (webhooks carry the delivery id in a header instead). */
  id?: string;
  event: string;
  timestamp: string;
  data: unknown;
}

export function envelope({ id, event, timestamp, data }: EventEnvelope): string {
  return JSON.stringify(id === undefined ? { event, timestamp, data } : { id, event, timestamp, data });
}

/** An outbox row as stored: `data` is the event's JSON text, `created_at` its timestamp. */
export interface OutboxEvent {
  id: string;
  event: string;
  data: string;
  created_at: string;
}

/** The envelope of a committed outbox row; `withId` for the event stream. */
export function outboxEnvelope(row: OutboxEvent, opts: { withId: boolean }): string {
  return envelope({ id: opts.withId ? row.id : undefined, event: row.event, timestamp: row.created_at, data: JSON.parse(row.data) });
}
