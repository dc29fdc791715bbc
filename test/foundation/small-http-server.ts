/** A tiny local HTTP server for tests that need "some other server": a fake Qdrant REST API, or a port that answers nonsense. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export { closedPort } from '../support/free-port.ts';

export interface SmallServer {
  url: string;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export async function startSmallServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<SmallServer> {
  const requests: SmallServer['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The part of Qdrant's REST API doctor uses: GET /collections, guarded by an `api-key` header. */
export function fakeQdrant(apiKey: string | undefined) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (apiKey && request.headers['api-key'] !== apiKey)
      return json(401, { status: { error: 'Unauthorized' } });
    if (request.method === 'GET' && request.url === '/collections') {
      return json(200, { result: { collections: [{ name: 'ragent' }] }, status: 'ok', time: 0.0001 });
    }
    json(404, { status: { error: 'Not found' } });
  };
}
