/**
 * `ragent ingest <files|dirs|urls…> [--scope S] [--crawl] [--max-pages N]`: ingests each file with a
 * progress bar (on stderr) and prints one summary line per file (on stdout); an http(s) address is
 * fetched as a web page (with `--crawl`, its site), an e-mail's attachments get a line each. A bad file
 * or page gets a one-line reason and the others still go in; the exit code is 1 if any failed.
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { sheetKinds, slideKinds } from '../../../core/file-kind.ts';
import { describeExtent } from '../../../core/location.ts';
import { type IngestReport, sharedScope } from '../../../core/types.ts';
import { describeError, isRagentError } from '../../../errors.ts';
import { supportedTypesText } from '../../../ingest/detect-file-kind.ts';
import { ingestStageWords } from '../../../turns/messages-en.ts';
import type { CliContext } from '../cli-context.ts';
import { createProgressBar } from '../progress-bar.ts';
import { collectFiles } from './collect-files.ts';

interface IngestCommandOptions {
  scope: string;
  force?: boolean;
  crawl?: boolean;
  maxPages: number;
}

const webAddress = /^https?:\/\//i;

export function registerIngestCommand(program: Command, context: CliContext): void {
  program
    .command('ingest')
    .description(
      'Add documents (PDF, Office, spreadsheets, HTML, e-mail, Markdown, text, images; or every such file in a directory) or web pages to the index',
    )
    .argument('<paths...>', `files, directories (walked for ${supportedTypesText}) or http(s) addresses`)
    .option('-s, --scope <scope>', 'the scope the documents belong to', sharedScope)
    .option('-f, --force', 'ingest again even when a file is unchanged (e.g. after changing chunking)')
    .option('--crawl', 'for an address: ingest the pages of its site (sitemap or links, robots.txt honoured)')
    .option('--max-pages <n>', 'pages a crawl ingests at most', parseMaxPages, 200)
    .action(async (paths: string[], options: IngestCommandOptions) => {
      const output = context.output;
      const urls = paths.filter((given) => webAddress.test(given));
      const { files, missing } = await collectFiles(paths.filter((given) => !webAddress.test(given)));
      let failed = missing.length;
      for (const { path: given, reason } of missing) output.write(`✗ ${given}: ${reason}\n`);
      if (files.length === 0 && missing.length === 0 && urls.length === 0) {
        (context.progress ?? process.stderr).write(`No ${supportedTypesText} files found there.\n`);
        process.exitCode = 1;
        return;
      }
      const { ingestion, web, logger, index, config } = await context.services();
      const { describeIndexSize, describeStaleRanking, embeddedIndexSize, staleRanking } = await import(
        '../../../retrieval/index-health.ts'
      );
      const progressBar = createProgressBar({
        stream: (context.progress ?? process.stderr) as NodeJS.WriteStream,
      });
      // Results go to stdout; the bar (stderr) is cleared first when both are one terminal.
      const bar = {
        update: progressBar.update,
        clear: progressBar.clear,
        log: (line: string) => {
          progressBar.clear();
          output.write(`${line}\n`);
        },
      };
      const uploader = `cli:${currentUser()}`;
      for (const file of files) {
        const name = path.basename(file);
        try {
          const bytes = new Uint8Array(await readFile(file));
          const report = await ingestion.ingest(
            { name, bytes, scope: options.scope, uploader, ...(options.force ? { force: true } : {}) },
            (progress) => {
              if (progress.stage === 'done') return;
              const label = `${name}: ${ingestStageWords[progress.stage]}`;
              if (progress.stage === 'reading' || progress.stage === 'chunking') bar.update(label, 0, 0, '');
              else bar.update(label, progress.done, progress.total, progress.unit);
            },
          );
          bar.log(summaryLine(report));
          failed += logAttachments(report, bar.log);
        } catch (error) {
          failed++;
          bar.log(
            `✗ ${name}: ${isRagentError(error) ? error.message : `unexpected error: ${describeError(error)}`}`,
          );
          if (!isRagentError(error) || error.code === 'INTERNAL')
            logger.error({ err: error, file }, 'ingest failed');
        }
      }
      let pages = 0;
      for (const url of urls) {
        const request = {
          url,
          scope: options.scope,
          uploader,
          origin: 'cli' as const,
          ...(options.force ? { force: true } : {}),
        };
        try {
          if (options.crawl) {
            const summary = await web.crawl({ ...request, maxPages: options.maxPages }, (outcome) => {
              pages++;
              if ('report' in outcome) bar.log(summaryLine(outcome.report));
              else {
                failed++;
                bar.log(`✗ ${outcome.url}: ${outcome.message}`);
              }
            });
            bar.log(
              `${url}: ${summary.pages} pages read from its ${summary.fromSitemap ? 'sitemap' : 'links'}` +
                (summary.truncated ? ` (stopped at --max-pages ${options.maxPages})` : ''),
            );
          } else {
            pages++;
            bar.update(`${url}: fetching`, 0, 0, '');
            bar.log(summaryLine(await web.ingestUrl(request)));
          }
        } catch (error) {
          failed++;
          bar.log(
            `✗ ${url}: ${isRagentError(error) ? error.message : `unexpected error: ${describeError(error)}`}`,
          );
          if (!isRagentError(error) || error.code === 'INTERNAL')
            logger.error({ err: error, url }, 'ingest failed');
        }
      }
      bar.clear();
      const total = files.length + missing.length + pages;
      if (total > 1) output.write(`${total - failed} ingested or up to date, ${failed} failed.\n`);
      const documents = await index.listAllDocuments?.();
      if (documents) {
        const children = documents.reduce((sum, document) => sum + document.children, 0);
        // Only the embedded store has a comfortable size; Qdrant grows with its server.
        const over = config.qdrant ? undefined : describeIndexSize(embeddedIndexSize(children));
        if (over) output.write(`! ${over}\n`);
        const staleWeights = describeStaleRanking(staleRanking(documents), index.readDocument !== undefined);
        if (staleWeights) output.write(`! ${staleWeights}\n`);
      }
      if (failed > 0) process.exitCode = 1;
    });
}

export function summaryLine(report: IngestReport): string {
  const { document } = report;
  // Decks and sheets count slides and rows; everything else keeps its page count.
  const { kind } = document;
  const extent =
    kind && (slideKinds.has(kind) || sheetKinds.has(kind))
      ? describeExtent(document)
      : `${document.pages} pages`;
  const facts = `${extent}, ${document.parents} parents, ${document.children} children`;
  switch (report.status) {
    case 'unchanged':
      return `= ${document.name}: unchanged (already ingested as ${document.id.slice(0, 12)} in ${document.scope})`;
    case 'reindexed':
      return `✓ ${document.name}: re-indexed ${document.id.slice(0, 12)} (it had the ranking weights of an older ragent) · ${facts} · ${report.seconds.toFixed(1)} s`;
    case 'replaced':
      return `✓ ${document.name}: replaced ${report.replacedDocumentId?.slice(0, 12)} → ${document.id.slice(0, 12)} · ${facts} · ${report.seconds.toFixed(1)} s`;
    default:
      return `✓ ${document.name}: ingested ${document.id.slice(0, 12)} · ${facts} · ${report.seconds.toFixed(1)} s`;
  }
}

/** One line per attachment of an e-mail; returns how many failed (an unsupported type is skipped, not failed). */
function logAttachments(report: IngestReport, log: (line: string) => void): number {
  let failed = 0;
  for (const attachment of report.attachments ?? []) {
    if ('report' in attachment) log(`  ${summaryLine(attachment.report)}`);
    else if (attachment.outcome === 'skipped') log(`  - ${attachment.name}: skipped (${attachment.message})`);
    else {
      failed++;
      log(`  ✗ ${attachment.name}: ${attachment.message}`);
    }
  }
  return failed;
}

function parseMaxPages(value: string): number {
  const pages = Number(value);
  if (!Number.isInteger(pages) || pages < 1 || pages > 100_000)
    throw new InvalidArgumentError('give a whole number of pages from 1 to 100000.');
  return pages;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
