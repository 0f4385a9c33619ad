import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';

/** How much of an oversized upload is read and dropped before the 413, and for how long at most. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

type Done = (err: Error | null, body?: unknown) => void;

/**
 * JSON bodies, read by hand instead of by Fastify's parseAs so an oversized body is drained before the
 * 413 goes out. Fastify answers at once with Connection: close and Node closes the socket while the
 * client is still uploading; the client's next write draws a reset, and a reset discards the 413 it
 * had not read yet (Node's fetch and most SDKs read only after sending). Reading and dropping the rest
 * (bounded in bytes and time) lets the client finish and read the answer. Beyond the bounds the 413
 * goes out at once, as before. An empty body is no body (a POST /restore with the JSON type).
 */
export function registerJsonBodyParser(app: FastifyInstance, defaultLimit: number): void {
  app.addContentTypeParser('application/json', (req: FastifyRequest, payload: NodeJS.ReadableStream, done: Done) => {
    const limit = req.routeOptions.bodyLimit ?? defaultLimit;
    const declared = Number(req.headers['content-length']);
    if (declared > DRAIN_MAX_BYTES) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());

    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const timer = setTimeout(() => finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()), DRAIN_MAX_MS);
    timer.unref();

    function finish(err: Error | null, body?: unknown) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      done(err, body);
    }
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > DRAIN_MAX_BYTES) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      // Over the limit the rest is read and dropped, not kept.
      if (received <= limit) chunks.push(chunk);
    }
    function onEnd() {
      if (received > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      if (!Number.isNaN(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      const text = Buffer.concat(chunks, received).toString('utf8');
      if (text.trim() === '') return finish(null, undefined);
      try {
        finish(null, JSON.parse(text));
      } catch (err) {
        finish(new SyntaxError((err as Error).message));
      }
    }
    function onError(err: Error & { statusCode?: number }) {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      finish(err);
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}
