import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a child process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address !== 'string'
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Ports below Linux's default range for outbound connections' local ports (32768–60999), for a
 * port bound minutes after it was chosen (an inspector opened by SIGUSR1): by then a port of that
 * range may have become some connection's local port, which `freePort`'s could.
 */
const LASTING_PORTS = { from: 20_000, to: 32_768 };

/** `count` distinct ports outside the outbound range, each free now. */
export async function lastingFreePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const span = LASTING_PORTS.to - LASTING_PORTS.from;
    const port = LASTING_PORTS.from + Math.floor(Math.random() * span);
    if (!ports.includes(port) && (await isFree(port))) ports.push(port);
  }
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
