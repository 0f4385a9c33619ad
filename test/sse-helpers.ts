import http from 'node:http';

export interface Sse {
  id: string;
  event: string;
  data: any;
}

/**
 * A minimal SSE client over node:http with its own connection (agent: false), so closing it really
 * closes the socket (fetch's pool may keep a spare connection open that delays the server's close).
 */
export async function openStream(url: string, headers: Record<string, string>) {
  const received: Sse[] = [];
  const comments: string[] = [];
  let waiters: (() => void)[] = [];
  const req = http.get(url, { headers, agent: false });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject));
  const done = new Promise<void>((resolve) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.includes(':')) fields[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).trimStart();
        }
        if (fields.data) received.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
        for (const w of waiters) w();
        waiters = [];
      }
    });
    res.once('close', resolve);
  });
  return {
    res: { status: res.statusCode, headers: { get: (name: string) => String(res.headers[name.toLowerCase()] ?? '') } },
    received,
    comments,
    /** Settles when the server ends the stream (or close() is called). */
    ended: done,
    /** Waits until `n` events arrived (the test's own timeout bounds it). */
    async waitFor(n: number) {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
      return received.slice(0, n);
    },
    async close() {
      req.destroy();
      await done;
    },
  };
}
