/**
 * `ragent reindex [document] [--scope S]`: computes the vectors of stored documents again with the
 * embeddings configured now (after turning embeddings on or changing the model), from the text the
 * index keeps — the files are not needed. Without arguments: every document of every scope; with
 * `--scope`: that scope; with a document (id, id prefix or name): that one. Each document is replaced
 * atomically, so an interrupted run leaves every document either as it was or re-indexed.
 * `--refetch` instead fetches every web page document (ingested from a URL) of the selection again:
 * a page whose content changed replaces its old version, an unchanged one stays as it is.
 */
import type { Command } from 'commander';
import { type DocumentRecord, isWebDocument, sharedScope } from '../../../core/types.ts';
import { describeError, isRagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';
import { createProgressBar } from '../progress-bar.ts';
import { summaryLine } from './ingest-command.ts';

interface ReindexCommandOptions {
  scope?: string;
  refetch?: boolean;
}

export function registerReindexCommand(program: Command, context: CliContext): void {
  program
    .command('reindex')
    .description('Compute the vectors of ingested documents again with the configured embeddings')
    .argument('[document]', 'one document (id, id prefix or file name); all documents when omitted')
    .option('-s, --scope <scope>', 'only this scope (default: every scope; with a document: shared)')
    .option('--refetch', 'fetch web page documents again instead (replaced only when their content changed)')
    .action(async (idOrName: string | undefined, options: ReindexCommandOptions) => {
      const output = context.output;
      const { index, embedder, ingestion, web, logger } = await context.services();
      const document = idOrName
        ? await ingestion.findDocument({ idOrName, scope: options.scope ?? sharedScope })
        : undefined;
      if (options.refetch) {
        const selected: DocumentRecord[] = document
          ? [document]
          : options.scope
            ? await index.listDocuments([options.scope])
            : ((await index.listAllDocuments?.()) ?? []);
        const pages = selected.filter(isWebDocument);
        let failed = 0;
        for (const page of pages) {
          try {
            output.write(`${summaryLine(await web.refetch(page))}\n`);
          } catch (error) {
            failed++;
            output.write(`✗ ${page.name}: ${isRagentError(error) ? error.message : describeError(error)}\n`);
            if (!isRagentError(error)) logger.error({ err: error, url: page.link }, 'refetch failed');
          }
        }
        output.write(
          pages.length === 0
            ? 'No web page documents to fetch again. Add some with `ragent ingest <url>`.\n'
            : `Fetched ${pages.length} page${pages.length === 1 ? '' : 's'} again, ${failed} failed.\n`,
        );
        if (failed > 0) process.exitCode = 1;
        return;
      }
      const { reindexDocuments } = await import('../../../ingest/reindex-documents.ts');
      const bar = createProgressBar({ stream: output as NodeJS.WriteStream });
      let current = '';
      const report = await reindexDocuments(
        { index, embedder, logger },
        { ...(options.scope ? { scope: options.scope } : {}), ...(document ? { document } : {}) },
        (progress) => {
          const label = `${progress.position}/${progress.documents} ${progress.document.name}`;
          if (label !== current && current !== '') bar.log(`✓ ${current}`);
          current = label;
          bar.update(label, progress.done, progress.total, 'chunks');
        },
      );
      if (current) bar.log(`✓ ${current}`);
      bar.clear();
      if (report.droppedVectors) {
        output.write('The old model’s vectors were dropped first; every document is now embedded again.\n');
      }
      const model = embedder ? `embeddings of ${embedder.model}` : 'BM25 only (RAGENT_EMBEDDINGS=none)';
      const count = report.reindexed.length;
      output.write(
        count === 0
          ? 'No documents to re-index. Add some with `ragent ingest <file.pdf>`.\n'
          : `Re-indexed ${count} document${count === 1 ? '' : 's'} with ${model}.\n`,
      );
    });
}
