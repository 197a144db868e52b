import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real service (PostgreSQL, Redis), so a test can take
 * the service away from one app without stopping it for the other test files running beside it.
 */
export interface TcpProxy {
  port: number;
  /** `refuse`: open connections are cut and new ones closed at once. `hang`: connections are accepted and never answered. */
  cut(mode: 'refuse' | 'hang'): void;
  /** Forward again; connections accepted while hanging are cut, so their clients reconnect. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'forward' | 'refuse' | 'hang' = 'forward';
  const open = new Set<net.Socket>();
  /** Accepted while hanging: never forwarded, so cut when the service comes back. */
  const hung = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    if (mode === 'hang') {
      hung.add(client);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    // A side that closes has the other ended once what it sent is written (a server's last words,
    // such as PostgreSQL's refusal of a connection, reach the client, which a destroy would drop
    // and answer with a reset); a side that fails resets the other.
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut(next) {
      mode = next;
      for (const socket of open) socket.destroy();
    },
    restore() {
      mode = 'forward';
      for (const socket of hung) socket.destroy();
      hung.clear();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
