/**
 * The MCP server on stdin/stdout, as Claude Desktop and Cursor start it. stdout carries only the
 * protocol: nothing else may write there (logs and notices go to stderr). Ends when the client closes
 * stdin — once the requests already read are answered, so `… | ragent mcp` in a script gets its
 * replies — or when the process is told to stop.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A message larger than this (1 MiB) closes the connection: no question or search is that long. */
const maxMessageBytes = 1024 * 1024;

export async function serveStdio(
  server: McpServer,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const transport = new StdioServerTransport(input as typeof process.stdin, output as typeof process.stdout, {
    maxBufferSize: maxMessageBytes,
  });
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const onSignal = () => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await server.connect(transport);
    const pending = countPendingRequests(transport);
    const inputEnded = new Promise<void>((resolve) => {
      input.once('end', resolve);
      input.once('close', resolve);
    });
    transport.onclose = ((previous) => () => {
      previous?.();
      stop();
    })(transport.onclose);
    await Promise.race([inputEnded.then(() => pending.drained()), stopped]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server.close();
  }
}

/** Requests read but not yet answered, counted at the transport (the SDK keeps them to itself). */
function countPendingRequests(transport: StdioServerTransport): { drained(): Promise<void> } {
  const open = new Set<string | number>();
  let wake: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) open.add(message.id);
    receive?.call(transport, message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      open.delete(message.id);
      if (open.size === 0) wake?.();
    }
  };
  return {
    drained: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = resolve;
          }),
  };
}
