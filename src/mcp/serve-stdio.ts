/**
 * The MCP server on stdin/stdout, as Claude Desktop and Cursor start it. stdout carries only the
 * protocol: nothing else may write there (logs and notices go to stderr). Ends when the client closes
 * stdin or the process is told to stop.
 */

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

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
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
    transport.onclose = () => resolve();
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
