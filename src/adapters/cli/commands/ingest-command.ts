/**
 * `ragent ingest <files|dirs…> [--scope S]`: ingests each file with a progress bar (on stderr) and
 * prints one summary line per file (on stdout). A bad file gets a one-line reason and the others
 * still go in; the exit code is 1 if any file failed.
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { type IngestReport, sharedScope } from '../../../core/types.ts';
import { describeError, isRagentError } from '../../../errors.ts';
import {
  describeIndexSize,
  describeStaleRanking,
  embeddedIndexSize,
  staleRanking,
} from '../../../retrieval/index-health.ts';
import { ingestStageWords } from '../../../turns/messages-en.ts';
import type { CliContext } from '../cli-context.ts';
import { createProgressBar } from '../progress-bar.ts';
import { collectFiles } from './collect-files.ts';

interface IngestCommandOptions {
  scope: string;
  force?: boolean;
}

export function registerIngestCommand(program: Command, context: CliContext): void {
  program
    .command('ingest')
    .description('Add PDF, Markdown, text or image files (or every such file in a directory) to the index')
    .argument('<paths...>', 'files or directories (walked for .pdf, .md, .txt and images: .png, .jpg, .tif)')
    .option('-s, --scope <scope>', 'the scope the documents belong to', sharedScope)
    .option('-f, --force', 'ingest again even when a file is unchanged (e.g. after changing chunking)')
    .action(async (paths: string[], options: IngestCommandOptions) => {
      const output = context.output;
      const { files, missing } = await collectFiles(paths);
      let failed = missing.length;
      for (const { path: given, reason } of missing) output.write(`✗ ${given}: ${reason}\n`);
      if (files.length === 0 && missing.length === 0) {
        (context.progress ?? process.stderr).write('No .pdf, .md, .txt or image files found there.\n');
        process.exitCode = 1;
        return;
      }
      const { ingestion, logger, index, config } = await context.services();
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
        } catch (error) {
          failed++;
          bar.log(
            `✗ ${name}: ${isRagentError(error) ? error.message : `unexpected error: ${describeError(error)}`}`,
          );
          if (!isRagentError(error) || error.code === 'INTERNAL')
            logger.error({ err: error, file }, 'ingest failed');
        }
      }
      bar.clear();
      if (files.length + missing.length > 1) {
        output.write(`${files.length + missing.length - failed} ingested or up to date, ${failed} failed.\n`);
      }
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
  const facts = `${document.pages} pages, ${document.parents} parents, ${document.children} children`;
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

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
