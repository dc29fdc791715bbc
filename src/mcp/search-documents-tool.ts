/** `search_documents`: the passages the retriever finds for a query, in the server's scopes (or one of them). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SearchHit } from '../core/types.ts';
import { childContent } from '../graph/retrieval-tools.ts';
import { narrowScopes } from './allowed-scopes.ts';
import { describeLocation, locationOf } from './document-location.ts';
import type { McpToolDependencies } from './mcp-tool-dependencies.ts';
import { toolError, toolResult } from './tool-result.ts';

export const defaultHits = 5;
export const maxHits = 20;

export const locationSchema = z.object({
  pages: z.tuple([z.number().int(), z.number().int()]).describe('First and last page, 1-based'),
  section: z.string().optional().describe('The headings from the top down, joined with ›'),
});

const hitSchema = z.object({
  rank: z.number().int(),
  score: z.number().describe('The retriever’s score: higher is more relevant (BM25 sum, or fused ranks)'),
  file: z.string(),
  documentId: z.string(),
  scope: z.string(),
  location: locationSchema,
  text: z.string(),
});

export function registerSearchDocuments(server: McpServer, dependencies: McpToolDependencies): void {
  server.registerTool(
    'search_documents',
    {
      title: 'Search documents',
      description:
        'Search the documents ragent has indexed for passages relevant to a query. Returns the best ' +
        'passages with their file, location (pages, section) and score.',
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1)
          .max(500)
          .describe('What to look for, in the words the documents would use'),
        k: z
          .number()
          .int()
          .min(1)
          .max(maxHits)
          .optional()
          .describe(`How many passages (default ${defaultHits})`),
        scope: z
          .string()
          .optional()
          .describe(`Search only this one of the server's scopes (${dependencies.scopes.join(', ')})`),
      },
      outputSchema: { scopes: z.array(z.string()), hits: z.array(hitSchema) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k, scope }) => {
      try {
        const scopes = narrowScopes(dependencies.scopes, scope);
        const found = await dependencies.retriever.search(query, { scopes, k: k ?? defaultHits });
        const hits = found.map(toHit);
        return toolResult(renderHits(hits, scopes), { scopes, hits });
      } catch (error) {
        return toolError(error, dependencies.logger, 'search_documents');
      }
    },
  );
}

type Hit = z.infer<typeof hitSchema>;

function toHit(hit: SearchHit, index: number): Hit {
  return {
    rank: index + 1,
    score: hit.score,
    file: hit.child.documentName,
    documentId: hit.child.documentId,
    scope: hit.child.scope,
    location: locationOf(hit.child),
    text: childContent(hit.child),
  };
}

function renderHits(hits: readonly Hit[], scopes: readonly string[]): string {
  if (hits.length === 0) return `Nothing found in ${scopes.join(', ')}.`;
  return hits
    .map(
      (hit) =>
        `[${hit.rank}] ${hit.file} (${describeLocation(hit.location)}) · score ${hit.score.toFixed(4)}\n${hit.text}`,
    )
    .join('\n\n');
}
