// One HTTP/1.1 request per connection over node:net (node:tls for https). node:http would do, but loading it (its
// agent, parser and server modules) cost each hook ~10 ms CPU against ~1 ms for node:net, measured on Node 20; the
// hook sends a handful of small JSON requests to its own service and reads small answers, which this covers.

/**
 * Sends one request and resolves { status, body } (body a Buffer, at most maxBytes of it). Rejects with an Error
 * whose code is the socket's (ECONNREFUSED, ...), or 'ETIMEDOUT' after timeoutMs for the whole exchange.
 */
export async function exchange(url, { method, headers, body, timeoutMs, maxBytes }) {
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw Object.assign(new Error(`unsupported protocol ${url.protocol}`), { code: 'EPROTO' });
  // Loaded already after a preconnect: no await then, so the request is on the socket before the caller goes on.
  const lib = transports[secure ? 'tls' : 'net'] ?? (await loadTransport(secure));
  const payload = body === undefined ? undefined : Buffer.from(body);
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: close'];
  for (const [name, value] of Object.entries({ ...headers, ...(payload ? { 'content-length': payload.length } : {}) })) {
    if (/[\r\n]/.test(String(value))) throw Object.assign(new Error(`header ${name} holds a line break`), { code: 'EINVALIDHEADER' });
    lines.push(`${name}: ${value}`);
  }
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let settled = false;
    const socket = takeWarm(url) ?? connect(lib, url);
    const settle = (err, result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        socket.destroy();
        return reject(err);
      }
      // Closing a socket costs ~1 ms; a hook that exits right after its answer leaves that to the OS.
      socket.pause();
      setImmediate(() => socket.destroy()).unref();
      resolve(result);
    };
    const timer = setTimeout(() => settle(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), Math.max(1, Math.floor(timeoutMs)));
    const answer = (ended) => {
      const parsed = parseResponse(Buffer.concat(chunks), { ended, maxBytes });
      if (parsed) settle(null, parsed);
      else if (ended) settle(Object.assign(new Error('incomplete response'), { code: 'ECONNRESET' }));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      // Beyond the bound the answer is cut where it stands (the hook reads small JSON answers only).
      answer(size > maxBytes + 65536);
    });
    socket.on('end', () => answer(true));
    // A service may answer (413) and close before reading the whole body: what it answered still counts.
    socket.on('error', (err) => {
      const parsed = chunks.length ? parseResponse(Buffer.concat(chunks), { ended: true, maxBytes }) : null;
      if (parsed) settle(null, parsed);
      else settle(err);
    });
    if (socket.earlyError) return settle(socket.earlyError);
    socket.write(payload ? Buffer.concat([head, payload]) : head);
  });
}

function connect(lib, url) {
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (secure ? 443 : 80);
  // An address is no server name: SNI carries host names only.
  return secure ? lib.connect({ host, port, servername: /^[\d.]+$|:/.test(host) ? undefined : host }) : lib.connect({ host, port });
}

/** A connection opened ahead of the first request (preconnect), until an exchange with the same origin takes it. */
let warm;

/**
 * Opens the connection for a request to `url`'s origin now: its handshake then overlaps the hook's file work
 * (~1-3 ms). The next exchange with that origin uses it. An error before then is kept and given to that exchange.
 */
export async function preconnect(url) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  const socket = connect(await loadTransport(url.protocol === 'https:'), url);
  socket.once('error', (err) => {
    socket.earlyError ??= err;
  });
  warm?.socket.destroy();
  warm = { origin: url.origin, socket };
}

function takeWarm(url) {
  if (!warm || warm.origin !== url.origin) return undefined;
  const { socket } = warm;
  warm = undefined;
  return socket;
}

/** The transports loaded so far: exchange takes one without an await once it is here. */
const transports = { net: undefined, tls: undefined };

/** node:tls or node:net, loaded on first use (~4 ms of CPU for node:net): a hook that sends nothing never pays it. */
export async function loadTransport(secure) {
  return (transports[secure ? 'tls' : 'net'] ??= (secure ? await import('node:tls') : await import('node:net')).default);
}

/**
 * { status, body } of a complete response in buf, or null while more is to come. `ended`: the connection is closed
 * (a body without length runs to the close; a cut one is taken as it is).
 */
export function parseResponse(buf, { ended = false, maxBytes = Infinity } = {}) {
  let start = 0;
  for (;;) {
    const headEnd = buf.indexOf('\r\n\r\n', start);
    if (headEnd < 0) return null;
    const [statusLine, ...fields] = buf.subarray(start, headEnd).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!m) return { status: 0, body: Buffer.alloc(0) };
    const status = Number(m[1]);
    const bodyStart = headEnd + 4;
    // 100 Continue and other interim answers come before the real one.
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const headers = {};
    for (const f of fields) {
      const colon = f.indexOf(':');
      if (colon > 0) headers[f.slice(0, colon).trim().toLowerCase()] = f.slice(colon + 1).trim();
    }
    const raw = buf.subarray(bodyStart);
    let body;
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(raw) ?? (ended ? raw : null);
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = raw.length >= length ? raw.subarray(0, length) : ended ? raw : null;
    } else body = ended || status === 204 || status === 304 ? raw : null;
    if (!body) return null;
    return { status, body: body.length > maxBytes ? body.subarray(0, maxBytes) : body };
  }
}

/** The body of a complete chunked encoding, or null when its last chunk has not arrived. */
function dechunk(raw) {
  const parts = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    const dataStart = lineEnd + 2;
    if (raw.length < dataStart + size + 2) return null;
    parts.push(raw.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
