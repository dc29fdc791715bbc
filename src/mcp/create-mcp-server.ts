/**
 * ragent as a Model Context Protocol server: the document search, the document list and the full
 * agent as tools, through the same services as the CLI, limited to the scopes given at start.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAsk } from './ask-tool.ts';
import { registerListDocuments } from './list-documents-tool.ts';
import type { McpToolDependencies } from './mcp-tool-dependencies.ts';
import { registerSearchDocuments } from './search-documents-tool.ts';

export const mcpServerName = 'ragent';

export function createMcpServer(dependencies: McpToolDependencies, version: string): McpServer {
  const server = new McpServer(
    { name: mcpServerName, version },
    {
      instructions:
        `Search and ask the documents indexed by ragent (scopes: ${dependencies.scopes.join(', ')}). ` +
        'Use search_documents for passages, ask for a written answer with citations.',
    },
  );
  registerSearchDocuments(server, dependencies);
  registerListDocuments(server, dependencies);
  registerAsk(server, dependencies);
  return server;
}
