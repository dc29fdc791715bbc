/**
 * A stopping HTTP receiver (any platform that delivers events by HTTP, e.g. Slack's) takes no new
 * events over a kept-alive connection. `server.close()` refuses new connections and closes idle ones,
 * but a connection whose request is still being answered (an acknowledgement held until its turn is
 * recorded) stays open after the response — and a load balancer that reuses it would hand this replica
 * new events, which it must leave to the other replicas (a replica that lost the shared database or is
 * shutting down). From the moment the receiver stops taking events, every response still to be written
 * says `Connection: close` and its connection ends with it; the platform's next delivery then reaches
 * a replica that takes it.
 */
import type { Server, ServerResponse } from 'node:http';

/** Watches `server`'s responses; call the result when the receiver stops taking events. */
export function closeConnectionsOnStop(server: Server): () => void {
  const unanswered = new Set<ServerResponse>();
  let stopping = false;
  server.on('request', (_request, response: ServerResponse) => {
    if (stopping) {
      response.shouldKeepAlive = false;
      return;
    }
    unanswered.add(response);
    response.once('close', () => unanswered.delete(response));
  });
  return () => {
    stopping = true;
    for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false;
    unanswered.clear();
  };
}
