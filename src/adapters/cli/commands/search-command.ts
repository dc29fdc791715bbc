/** `ragent search "<query>" [--k 7] [--scope S …] [--json]`: the children the retriever finds. */
import type { Command } from 'commander';
import { describeLocation, type Location, locationOf } from '../../../core/location.ts';
import { type DocumentRecord, type SearchHit, sharedScope } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
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
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.searchCountInvalid({ value }));
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
      // The documents' kinds say what the hits' positions are (pages, slides, rows).
      const documentIds = [...new Set(hits.map((hit) => hit.child.documentId))];
      const documents = new Map(
        (await retriever.getDocuments(documentIds, scopes)).map((document) => [document.id, document]),
      );
      const located = hits.map((hit) => ({ hit, location: hitLocation(hit, documents) }));
      if (options.json) context.output.write(`${JSON.stringify(located.map(toJson), null, 2)}\n`);
      else context.output.write(renderHits(located, scopes));
    });
}

interface LocatedHit {
  hit: SearchHit;
  location: Location;
}

function hitLocation(hit: SearchHit, documents: ReadonlyMap<string, DocumentRecord>): Location {
  const document = documents.get(hit.child.documentId);
  return locationOf(document?.kind, hit.child, document);
}

function toJson({ hit, location }: LocatedHit, index: number) {
  return {
    rank: index + 1,
    score: hit.score,
    file: hit.child.documentName,
    documentId: hit.child.documentId,
    pages: [hit.child.pageStart, hit.child.pageEnd],
    section: hit.child.sectionPath,
    location,
    scope: hit.child.scope,
    childId: hit.child.id,
    parentId: hit.child.parentId,
    text: hit.child.text,
  };
}

export function renderHits(hits: readonly LocatedHit[], scopes: readonly string[]): string {
  if (hits.length === 0) {
    return `Nothing found in ${scopes.join(', ')}. Check the scope, or add documents with \`ragent ingest\`.\n`;
  }
  return `${hits
    .map(({ hit, location }, index) => {
      const { pageStart, pageEnd } = hit.child;
      // Paged documents keep their short form; others say where in their own terms (slide, sheet, rows).
      const place =
        'pages' in location
          ? pageStart === pageEnd
            ? `p. ${pageStart}`
            : `pp. ${pageStart}–${pageEnd}`
          : 'section' in location || Object.keys(location).length === 0
            ? ''
            : describeLocation('', location).replace(/^, /, '');
      const section = hit.child.sectionPath.join(' › ');
      const text = hit.child.text.replace(/\s+/g, ' ').trim();
      const snippet = text.length > 240 ? `${text.slice(0, 239)}…` : text;
      return (
        `${String(index + 1).padStart(2)}. ${hit.score.toFixed(4)}  ${hit.child.documentName}${place ? `  ${place}` : ''}` +
        `${section ? `  ${section}` : ''}\n    ${snippet}`
      );
    })
    .join('\n')}\n`;
}
