/**
 * `ragent mcp [--scope S …] [--http PORT --token T] [--host H]`: ragent's search, document list and
 * agent as a Model Context Protocol server — on stdio (the default, for Claude Desktop and Cursor) or
 * on streamable HTTP with a bearer token (--token or RAGENT_MCP_TOKEN). The scopes given here are all it ever searches; no scope
 * means `shared` only, the documents every workspace and server may already see. The MCP SDK is
 * loaded only when the command runs.
 */
import type { Command } from 'commander';
import { sharedScope } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';
import { checkScope } from './chat-command.ts';
import { collectScopes } from './search-command.ts';

/** A shorter token is too easy to guess for a server that hands out documents. */
export const minTokenLength = 16;

interface McpCommandOptions {
  scope: string[];
  http?: string;
  host: string;
  token?: string;
}

export function registerMcpCommand(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description('Serve search, the document list and the agent to MCP clients (stdio, or HTTP with a token)')
    .option(
      '-s, --scope <scope>',
      'a scope the tools may search (repeatable; default shared)',
      collectScopes,
      [],
    )
    .option(
      '--http <port>',
      'serve streamable HTTP on this port instead of stdio (needs --token or RAGENT_MCP_TOKEN)',
    )
    .option('--host <host>', 'the address to bind with --http', '127.0.0.1')
    .option(
      '--token <token>',
      `the bearer token HTTP clients must send (at least ${minTokenLength} characters)`,
    )
    .action(async (options: McpCommandOptions) => {
      const scopes = [...new Set(options.scope.map(checkScope))];
      if (scopes.length === 0) scopes.push(sharedScope);
      // RAGENT_MCP_TOKEN keeps the token off the command line (where `ps` shows it); --token wins.
      const token = options.token ?? (options.http === undefined ? undefined : context.config().mcp.token);
      const http = options.http === undefined ? undefined : checkHttp(options, token);
      if (!http && options.token !== undefined)
        throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.mcpTokenWithoutHttp());
      const progress = context.progress ?? process.stderr;
      const logger = context.logger();
      const { retriever, ingestion, conversations } = await context.services();
      const { createMcpServer } = await import('../../../mcp/create-mcp-server.ts');
      const build = () =>
        createMcpServer(
          { retriever, ingestion, conversations, scopes, logger },
          program.version() ?? '0.0.0',
        );
      if (!http) {
        const { serveStdio } = await import('../../../mcp/serve-stdio.ts');
        progress.write(`ragent MCP server on stdio (scopes: ${scopes.join(', ')})\n`);
        await serveStdio(build());
        return;
      }
      const { serveHttp } = await import('../../../mcp/serve-http.ts');
      const server = await serveHttp({ createServer: build, logger, ...http });
      progress.write(`ragent MCP server on ${server.url} (scopes: ${scopes.join(', ')}); Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    });
}

function checkHttp(
  options: McpCommandOptions,
  token: string | undefined,
): { port: number; host: string; token: string } {
  const port = Number(options.http);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.mcpPortInvalid({ port: options.http }),
    );
  const trimmed = token?.trim() ?? '';
  if (trimmed.length < minTokenLength) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.mcpTokenMissing({ minTokenLength }));
  }
  return { port, host: options.host.trim() || '127.0.0.1', token: trimmed };
}
