/** `list_documents`: the documents of the server's scopes (or one of them). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isThreadFilesScope } from '../core/ids.ts';
import type { DocumentRecord } from '../core/types.ts';
import { narrowScopes } from './allowed-scopes.ts';
import type { McpToolDependencies } from './mcp-tool-dependencies.ts';
import { toolError, toolResult } from './tool-result.ts';

const documentSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.string(),
  pages: z.number().int(),
  ingestedAt: z.string(),
  link: z.string().optional(),
});

export function registerListDocuments(server: McpServer, dependencies: McpToolDependencies): void {
  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description: 'List the documents ragent can search here: name, scope, pages and when each was added.',
      inputSchema: {
        scope: z
          .string()
          .optional()
          .describe(`List only this one of the server's scopes (${dependencies.scopes.join(', ')})`),
      },
      outputSchema: { scopes: z.array(z.string()), documents: z.array(documentSchema) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ scope }) => {
      try {
        const scopes = narrowScopes(dependencies.scopes, scope);
        // A file attached to one question in a chat belongs to that thread alone: never listed here.
        const documents = (await dependencies.ingestion.listDocuments(scopes))
          .filter((document) => !isThreadFilesScope(document.scope))
          .map(toDocument);
        const text =
          documents.length === 0
            ? `No documents in ${scopes.join(', ')}.`
            : documents.map((each) => `${each.name} (${each.scope}, ${each.pages} pages)`).join('\n');
        return toolResult(text, { scopes, documents });
      } catch (error) {
        return toolError(error, dependencies.logger, 'list_documents');
      }
    },
  );
}

function toDocument(record: DocumentRecord): z.infer<typeof documentSchema> {
  return {
    id: record.id,
    name: record.name,
    scope: record.scope,
    pages: record.pages,
    ingestedAt: record.ingestedAt,
    ...(record.link ? { link: record.link } : {}),
  };
}
