/**
 * `ragent docs list [--scope S | --all] [--json]`, `ragent docs remove <id|name> [--scope S]` and
 * `ragent docs move <id|name> --from S --to S` (within one workspace/server, or shared). `--all`
 * lists every scope, grouped, so the documents of a channel that is gone still show with its id.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../../../config.ts';
import { type DocumentRecord, sharedScope } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

interface ScopeOption {
  scope: string;
}

export function registerDocsCommand(program: Command, context: CliContext): void {
  const docs = program.command('docs').description('List or remove ingested documents');
  docs
    .command('list')
    .description('List the documents of a scope')
    .option('-s, --scope <scope>', 'the scope to list', sharedScope)
    .option('-a, --all', 'list the documents of every scope, grouped by scope')
    .option('--json', 'print the documents as JSON')
    .action(async (options: ScopeOption & { json?: boolean; all?: boolean }, command: Command) => {
      if (options.all && command.getOptionValueSource('scope') === 'cli') {
        throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.scopeAndAll());
      }
      const { ingestion, config, index } = await context.services();
      const { configuredEmbeddingModel } = await import('../../../models/create-embedder.ts');
      const { describeEmbeddingMix, describeStaleRanking, embeddingMix, staleRanking } = await import(
        '../../../retrieval/index-health.ts'
      );
      let documents: DocumentRecord[];
      if (options.all) {
        if (!index.listAllDocuments) {
          throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.listAllUnsupported());
        }
        documents = await index.listAllDocuments();
      } else documents = await ingestion.listDocuments([options.scope]);
      if (options.json) {
        context.output.write(`${JSON.stringify(documents, null, 2)}
`);
        return;
      }
      context.output.write(
        options.all ? renderAllDocuments(documents) : renderDocuments(documents, options.scope),
      );
      context.output.write(`${indexLocation(context.config())}
`);
      const mixed = describeEmbeddingMix(embeddingMix(documents, configuredEmbeddingModel(config)));
      if (mixed)
        context.output.write(`! ${mixed}
`);
      const staleWeights = describeStaleRanking(staleRanking(documents), index.readDocument !== undefined);
      if (staleWeights) context.output.write(`! ${staleWeights}\n`);
    });
  docs
    .command('remove')
    .description('Remove a document (by id, unique id prefix or file name) from a scope')
    .argument('<idOrName>', 'document id, id prefix, or file name')
    .option('-s, --scope <scope>', 'the scope to remove it from', sharedScope)
    .action(async (idOrName: string, options: ScopeOption) => {
      const { ingestion } = await context.services();
      const removed = await ingestion.removeDocument({ idOrName, scope: options.scope });
      context.output.write(`Removed ${removed.name} (${removed.id.slice(0, 12)}) from ${removed.scope}.\n`);
    });
  docs
    .command('move')
    .description(
      'Move a document to another set of the same workspace/server (or shared), atomically: same chunks, same upload link',
    )
    .argument('<idOrName>', 'document id, id prefix, or file name')
    .requiredOption(
      '--from <scope>',
      'the scope it is in, e.g. <platform>:<workspace>:<channel> (ragent docs list shows them)',
    )
    .requiredOption('--to <scope>', 'the scope to move it to, e.g. <platform>:<workspace>')
    .action(async (idOrName: string, options: { from: string; to: string }) => {
      const { ingestion } = await context.services();
      const report = await ingestion.moveDocument({ idOrName, from: options.from, to: options.to });
      const { document } = report;
      context.output.write(
        `Moved ${document.name} (${document.id.slice(0, 12)}) from ${report.from} to ${document.scope}.\n`,
      );
      if (report.cleanUpPending) {
        (context.progress ?? process.stderr).write(
          `! ${document.name} is searched only in ${document.scope} now, but removing what is left of it in ${report.from} failed; ` +
            'that is retried before the next write of this file and when ragent starts.\n',
        );
      }
    });
}

/** Where the listed documents live, so a wrong working directory or data dir shows at once. */
export function indexLocation(config: Config): string {
  return config.qdrant
    ? `Index: Qdrant collection ${config.qdrant.collection} (data directory ${config.dataDir}).`
    : `Index: ${path.join(config.dataDir, 'index.sqlite')} (data directory ${config.dataDir}).`;
}

/** Every scope's documents, one table per scope (`shared`, `slack:<team>:<channel>`, …). */
export function renderAllDocuments(documents: readonly DocumentRecord[]): string {
  if (documents.length === 0) return 'No documents in any scope. Add some with `ragent ingest <file.pdf>`.\n';
  const byScope = new Map<string, DocumentRecord[]>();
  for (const document of documents)
    byScope.set(document.scope, [...(byScope.get(document.scope) ?? []), document]);
  const groups = [...byScope]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([scope, group]) => `${scope}\n${renderDocuments(group, scope)}`);
  const scopes = byScope.size;
  return `${groups.join('\n')}\n${documents.length} document${documents.length === 1 ? '' : 's'} in ${scopes} scope${scopes === 1 ? '' : 's'}.\n`;
}

export function renderDocuments(documents: readonly DocumentRecord[], scope: string): string {
  if (documents.length === 0)
    return `No documents in ${scope}. Add some with \`ragent ingest <file.pdf>\`.\n`;
  const rows = [
    ['ID', 'NAME', 'PAGES', 'CHUNKS', 'EMBEDDINGS', 'INGESTED'],
    ...documents.map((document) => [
      document.id.slice(0, 12),
      document.name,
      String(document.pages),
      `${document.parents}/${document.children}`,
      document.embeddingModel ?? 'bm25 only',
      document.ingestedAt.replace('T', ' ').slice(0, 16),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n${documents.length} document${documents.length === 1 ? '' : 's'} in ${scope}.\n`;
}
