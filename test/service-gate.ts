import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback proxy in front of the real service, so one test can take the service down or make it
 * hang and bring it back at the same URL. `down`: the port stops listening (connections are refused, as
 * with a stopped service); `drop`: connections are accepted and closed at once, without an answer (what
 * docker-proxy or an SSH tunnel does while the service behind it is stopped); `hang`: requests are read
 * and never answered. Every request that reached the gate is recorded (the hooks' and the MCP
 * client's), so a test can check what left the machine.
 */
export type GateMode = 'up' | 'down' | 'drop' | 'hang';

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
  /** Down and drop also close the connections already open (a keep-alive MCP client's, say). */
  setMode(mode: GateMode): Promise<void>;
  requests: GateRequest[];
  close(): Promise<void>;
}

export async function startGate(target: string): Promise<ServiceGate> {
  const sockets = new Set<Socket>();
  let mode: GateMode = 'up';
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      gate.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8'), mode });
      if (mode === 'hang') return;
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
    if (mode === 'drop') return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const gate: ServiceGate = {
    url: '',
    get mode() {
      return mode;
    },
    async setMode(next) {
      const was = mode;
      mode = next;
      if (next === 'down') await stop();
      else if (next === 'drop') for (const s of sockets) s.destroy();
      if (was === 'down' && next !== 'down') await listen();
    },
    requests: [],
    close: stop,
  };
  await listen();
  port = (server.address() as AddressInfo).port;
  gate.url = `http://127.0.0.1:${port}`;
  return gate;
}
