import { once } from 'node:events';
import { z } from 'zod';
import { authenticateRequest, type Credentials } from '../../http/auth.js';
import { EVENT_NAMES } from '../../events/catalog.js';
import { responses } from '../../http/schemas.js';
import type { ZApp } from '../../http/types.js';
import { WorkspaceIdInput } from '../../lib/schema-fields.js';
import type { EventsService } from './events.service.js';

const StreamQuery = z.object({
  workspace_id: WorkspaceIdInput.describe("The workspace whose events to stream (needs a member's records.read; default: your personal workspace, or the one your key is restricted to)"),
  events: z
    .string()
    .max(1000)
    .optional()
    .describe(`Comma-separated event names to receive (default: all the credential's scopes may read). Known: ${EVENT_NAMES.join(', ')}. ` + 'A name the scopes do not cover is a 403 insufficient_scope.'),
});
const StreamHeaders = z.object({
  'last-event-id': z.string().max(100).optional().describe('Resume strictly after this event id (the SSE `id:` of the last event received), at most 24 hours back.'),
});
const StreamBody = z
  .string()
  .describe(
    'text/event-stream. Each event: `id: evt_...`, `event: <name>`, `data: {"id","event","timestamp","data"}` (the webhook body plus the id). ' +
      'A comment line (`: heartbeat`) every 15 seconds keeps proxies from closing an idle stream.',
  );

/** The credentials the /v1 auth hook accepts, so a stream can re-check the one it was opened with. */
export type StreamAuth = Credentials;

/** GET /v1/events/stream: the account's events as Server-Sent Events, from the outbox. */
export function registerEventRoutes(app: ZApp, events: EventsService, auth: StreamAuth) {
  const { heartbeatMs } = events;
  const open = new Set<() => void>();
  // Fastify's close waits for busy connections; a stream never goes idle, so end them first.
  app.addHook('preClose', (done) => {
    for (const stop of [...open]) stop();
    done();
  });

  app.get('/events/stream', {
    schema: {
      tags: ['Events'],
      operationId: 'streamEvents',
      summary: "Stream a workspace's events (Server-Sent Events): Bearer key or console session; resume with Last-Event-ID",
      description:
        'A scoped credential receives only the events its scopes read: sheet.* and export.completed need sheets:read, session.* ' +
        'sessions:read, knowledge.saved knowledge:read, spark.executed sparks:run or stats:read. A credential that reads none of them: 403. ' +
        'Open streams are capped per credential (EVENT_STREAM_MAX_PER_CREDENTIAL, default 10) and per client address ' +
        '(EVENT_STREAM_MAX_PER_ADDRESS, default 50): one more is 429 rate_limited with Retry-After.',
      querystring: StreamQuery,
      headers: StreamHeaders,
      response: responses(StreamBody, 403, 404),
    },
    handler: async (req, reply) => {
      const filter = events.forScopes(req.auth.scopes, events.parseFilter(req.query.events, EVENT_NAMES));
      const wanted = req.query.workspace_id;
      const workspaceId = await events.streamKey(req.auth, wanted);
      const ac = new AbortController();
      // Validates Last-Event-ID and takes a stream slot, so a bad id (400) or one stream too many (429) is still an ordinary JSON error.
      const opener = { workspaceId, credentialId: req.auth.keyId, address: req.ip };
      const cursor = events.open(opener, { lastEventId: req.headers['last-event-id'], events: filter, signal: ac.signal });
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\n: connected\n\n');
      // A key disabled or expired, a grant revoked, a session ended, the caller removed from the workspace
      // after the stream opened: it ends at the next heartbeat or batch, whichever comes first. Any failure
      // (even a database error) ends it; the client reconnects with Last-Event-ID.
      const { userId, keyId } = req.auth;
      const stillValid = async () => {
        try {
          const now = await authenticateRequest(req, auth);
          return now.userId === userId && now.keyId === keyId && (await events.streamKey(now, wanted)) === workspaceId;
        } catch {
          return false;
        }
      };
      let checking = false;
      const heartbeat = setInterval(() => {
        if (checking) return;
        checking = true;
        void stillValid().then((ok) => {
          checking = false;
          if (ac.signal.aborted) return;
          if (ok) res.write(': heartbeat\n\n');
          else stop();
        });
      }, heartbeatMs);
      const stop = () => {
        clearInterval(heartbeat);
        open.delete(stop);
        ac.abort();
      };
      open.add(stop);
      res.on('close', stop);
      try {
        while (!ac.signal.aborted) {
          const batch = await cursor.next();
          if (batch.length > 0 && !(await stillValid())) break;
          for (const e of batch) {
            if (ac.signal.aborted) break;
            if (!res.write(`id: ${e.id}\nevent: ${e.event}\ndata: ${e.body}\n\n`)) await once(res, 'drain', { signal: ac.signal });
          }
        }
      } catch (err) {
        if (!ac.signal.aborted) req.log.warn({ err }, 'event stream failed');
      } finally {
        stop();
        // A stream's connection is never reused: close it once the end is flushed, or the server's
        // close would wait for it (it is not idle) until the keep-alive timeout.
        res.end(() => res.destroy());
      }
    },
  });
}
