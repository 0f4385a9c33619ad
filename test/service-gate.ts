import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback proxy in front of the real service, so one test can take the service down or make it
 * hang and bring it back at the same URL. `down`: each connection is reset as soon as it opens (what
 * a client sees of a stopped service is the same failed fetch); `hang`: requests are read and never
 * answered. Every request that reached the gate is recorded (the hooks' and the MCP client's), so a
 * test can check what left the machine.
 */
export type GateMode = 'up' | 'down' | 'hang';

export interface GateRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The mode the gate was in when the request came. */
  mode: GateMode;
}

export interface ServiceGate {
  url: string;
  readonly mode: GateMode;
  /** Down also drops the connections already open (a keep-alive MCP client's, say). */
  setMode(mode: GateMode): void;
  requests: GateRequest[];
  close(): Promise<void>;
}

export async function startGate(target: string): Promise<ServiceGate> {
  const sockets = new Set<Socket>();
  const gate: ServiceGate = {
    url: '',
    mode: 'up',
    setMode(mode) {
      (gate as { mode: GateMode }).mode = mode;
      if (mode === 'down') for (const s of sockets) s.destroy();
    },
    requests: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      gate.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8'), mode: gate.mode });
      if (gate.mode === 'hang') return;
      const upstream = http.request(target + req.url, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  server.on('connection', (socket) => {
    if (gate.mode === 'down') return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gate.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return gate;
}
