/**
 * A loopback port that nothing listens on right now: the tests start a server there, or use it as an
 * address that refuses connections.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A port on 127.0.0.1 where nothing listens (connection refused). */
export const closedPort = freePort;
