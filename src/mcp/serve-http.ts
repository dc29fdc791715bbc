/**
 * The MCP server over streamable HTTP at `/mcp`, stateless (a server and transport per request, so
 * nothing is kept between calls). Every request needs `Authorization: Bearer <token>`; the token is
 * compared in constant time. Bound to 127.0.0.1 unless told otherwise: it serves the documents of its
 * scopes to whoever holds the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../logger.ts';

export const mcpPath = '/mcp';
/** No question or search is that long; a larger body is refused with 413 before it is parsed. */
const maxBodyBytes = 1024 * 1024;

export interface HttpMcpOptions {
  /** Builds a fresh MCP server for one request. */
  createServer(): McpServer;
  token: string;
  port: number;
  host: string;
  logger: Logger;
}

export interface HttpMcpServer {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(options: HttpMcpOptions): Promise<HttpMcpServer> {
  const expected = digest(options.token);
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.logger.error({ err: error }, 'MCP request failed');
      if (!response.headersSent) reply(response, 500, -32603, 'Internal error');
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== mcpPath) return reply(response, 404, -32601, `Not found: the MCP endpoint is ${mcpPath}.`);
    if (!authorized(request.headers.authorization, expected)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="ragent"');
      return reply(
        response,
        401,
        -32001,
        'Unauthorized: send Authorization: Bearer <the token ragent mcp was started with>.',
      );
    }
    const mcp = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: maxBodyBytes,
    });
    response.on('close', () => {
      transport.close().catch(() => {});
      mcp.close().catch(() => {});
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${mcpPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests, so neither the token's content nor its length leaks through timing. */
function authorized(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

function reply(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
