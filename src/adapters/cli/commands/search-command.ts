/** `ragent search "<query>" [--k 7] [--scope S …] [--json]`: the children the retriever finds. */
import type { Command } from 'commander';
import { type SearchHit, sharedScope } from '../../../core/types.ts';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

interface SearchCommandOptions {
  k: string;
  scope: string[];
  json?: boolean;
}

export const collectScopes = (value: string, previous: string[]) => [...previous, value];

export function parseK(value: string, fallback: number): number {
  const k = Number(value ?? fallback);
  if (!Number.isInteger(k) || k < 1 || k > 100) {
    throw new RagentError('INVALID_INPUT', `--k must be a whole number from 1 to 100 (got ${value}).`);
  }
  return k;
}

export function registerSearchCommand(program: Command, context: CliContext): void {
  program
    .command('search')
    .description('Search the index and print the best chunks with score, file, pages and section')
    .argument('<query>', 'what to look for')
    .option('-k, --k <count>', 'how many chunks to show', '7')
    .option('-s, --scope <scope>', 'a scope to search (repeatable; default shared)', collectScopes, [])
    .option('--json', 'print the hits as JSON')
    .action(async (query: string, options: SearchCommandOptions) => {
      const k = parseK(options.k, 7);
      const scopes = options.scope.length > 0 ? options.scope : [sharedScope];
      const { retriever } = await context.services();
      const hits = await retriever.search(query, { scopes, k });
      if (options.json) context.output.write(`${JSON.stringify(hits.map(toJson), null, 2)}\n`);
      else context.output.write(renderHits(hits, scopes));
    });
}

function toJson(hit: SearchHit, index: number) {
  return {
    rank: index + 1,
    score: hit.score,
    file: hit.child.documentName,
    documentId: hit.child.documentId,
    pages: [hit.child.pageStart, hit.child.pageEnd],
    section: hit.child.sectionPath,
    scope: hit.child.scope,
    childId: hit.child.id,
    parentId: hit.child.parentId,
    text: hit.child.text,
  };
}

export function renderHits(hits: readonly SearchHit[], scopes: readonly string[]): string {
  if (hits.length === 0) {
    return `Nothing found in ${scopes.join(', ')}. Check the scope, or add documents with \`ragent ingest\`.\n`;
  }
  return `${hits
    .map((hit, index) => {
      const { pageStart, pageEnd } = hit.child;
      const pages = pageStart === pageEnd ? `p. ${pageStart}` : `pp. ${pageStart}–${pageEnd}`;
      const section = hit.child.sectionPath.join(' › ');
      const text = hit.child.text.replace(/\s+/g, ' ').trim();
      const snippet = text.length > 240 ? `${text.slice(0, 239)}…` : text;
      return (
        `${String(index + 1).padStart(2)}. ${hit.score.toFixed(4)}  ${hit.child.documentName}  ${pages}` +
        `${section ? `  ${section}` : ''}\n    ${snippet}`
      );
    })
    .join('\n')}\n`;
}
