import net from 'node:net';

/** A loopback proxy to the service that can be taken down (connections reset) and brought back at the same URL. */
export async function switchableProxy(target: string) {
  const port = Number(new URL(target).port);
  const state = { up: true };
  const server = net.createServer((sock) => {
    if (!state.up) return sock.destroy();
    const upstream = net.connect(port, '127.0.0.1');
    sock.on('error', () => upstream.destroy());
    upstream.on('error', () => sock.destroy());
    sock.pipe(upstream).pipe(sock);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { url, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
export type SwitchableProxy = Awaited<ReturnType<typeof switchableProxy>>;
