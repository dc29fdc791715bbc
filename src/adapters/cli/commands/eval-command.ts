/**
 * `ragent eval <file.jsonl> [--k 5] [--scope S …] [--json]`: retrieval quality over a question set
 * (metrics defined in src/retrieval/evaluation.ts); `--json` prints one object with hitAtK,
 * parentHitAtK, parentHitAt1, bothHitAtK, docAtK, mrr, childTokens, parentTokens, bothTokens, p50Ms, p95Ms, splits (tuning and
 * held-out parts, or null) and items. Tokens are counted with the answer model's tokenizer.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { sharedScope } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { describeError, RagentError } from '../../../errors.ts';
import type { EvalMetrics, EvalReport } from '../../../retrieval/evaluation.ts';
import type { CliContext } from '../cli-context.ts';
import { createProgressBar } from '../progress-bar.ts';
import { collectScopes, parseK } from './search-command.ts';

interface EvalCommandOptions {
  k: string;
  scope: string[];
  json?: boolean;
}

export function registerEvalCommand(program: Command, context: CliContext): void {
  program
    .command('eval')
    .description(
      'Measure retrieval over a JSON-lines question set (hit@k, parent hit@k and @1, both, doc@k, MRR, tokens read, latency)',
    )
    .argument(
      '<file>',
      'JSON lines: {"question": "...", "evidence": ["..."], "doc": "file.pdf", "page": 3, "heldOut": true}',
    )
    .option('-k, --k <count>', 'how many chunks count as retrieved', '5')
    .option('-s, --scope <scope>', 'a scope to search (repeatable; default shared)', collectScopes, [])
    .option('--json', 'print the metrics and every item as JSON')
    .action(async (file: string, options: EvalCommandOptions) => {
      const k = parseK(options.k, 5);
      const scopes = options.scope.length > 0 ? options.scope : [sharedScope];
      const text = await readFile(file, 'utf8').catch((error: unknown) => {
        throw new RagentError(
          'INVALID_INPUT',
          errorMessages.INVALID_INPUT.fileUnreadable({ file, reason: describeError(error) }),
          {
            cause: error,
          },
        );
      });
      const { evaluateRetrieval, parseQuestions } = await import('../../../retrieval/evaluation.ts');
      const { countTokens } = await import('../../../graph/token-counter.ts');
      const questions = parseQuestions(text, file);
      if (questions.length === 0)
        throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.noQuestions({ file }));
      const { retriever } = await context.services();
      const bar = options.json
        ? undefined
        : createProgressBar({ stream: context.output as NodeJS.WriteStream });
      const report = await evaluateRetrieval(retriever, questions, {
        scopes,
        k,
        countTokens,
        onProgress: (done, total) => bar?.update('searching', done, total, 'questions'),
      });
      bar?.clear();
      if (options.json) context.output.write(`${JSON.stringify(report, null, 2)}\n`);
      else context.output.write(renderReport(report, k));
    });
}

export function renderReport(report: EvalReport, k: number): string {
  const judged = report.items.filter((item) => item.hit !== null);
  const misses = judged.filter((item) => !item.hit);
  const lines = [
    `${report.items.length} questions, ${judged.length} with evidence, k = ${k}`,
    ...metricLines(report, k),
    `latency       p50 ${report.p50Ms.toFixed(1)} ms, p95 ${report.p95Ms.toFixed(1)} ms`,
  ];
  if (report.splits) {
    const { tuning, heldOut } = report.splits;
    lines.push('', `Tuning part (${tuning.questions})  |  held-out part (${heldOut.questions})`);
    const tuningLines = metricLines(tuning, k);
    metricLines(heldOut, k).forEach((line, index) => {
      lines.push(`${tuningLines[index]?.padEnd(28)}|  ${line}`);
    });
  }
  if (misses.length > 0) {
    lines.push('', `Missed (${misses.length}):`);
    for (const item of misses.slice(0, 20)) {
      lines.push(`  ${item.parentHit ? '~' : '✗'} ${item.question}${item.doc ? `  [${item.doc}]` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function metricLines(metrics: Omit<EvalMetrics, 'questions'>, k: number): string[] {
  return [
    `hit@${k}         ${metrics.hitAtK.toFixed(3)}`,
    `parent hit@${k}  ${metrics.parentHitAtK.toFixed(3)}`,
    `parent hit@1  ${metrics.parentHitAt1.toFixed(3)}`,
    `both hit@${k}    ${metrics.bothHitAtK.toFixed(3)}  (the children and the first one's parent)`,
    `doc@${k}         ${metrics.docAtK.toFixed(3)}`,
    `MRR           ${metrics.mrr.toFixed(3)}`,
    `tokens read   ${Math.round(metrics.childTokens)} (children), ${Math.round(metrics.parentTokens)} (parents), ${Math.round(metrics.bothTokens)} (both)`,
  ];
}
