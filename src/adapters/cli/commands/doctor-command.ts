/**
 * `ragent doctor`: checks what ragent needs (data dir, Ollama and its models, Qdrant, token shapes)
 * and prints ✓/✗ with a concrete fix for each problem. Exit code 1 when something required is missing.
 */
import type { Command } from 'commander';
import type { Config } from '../../../config.ts';
import type { CheckResult, CheckStatus, DoctorReport } from '../../../doctor/check-result.ts';
import { isRagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

interface DoctorCommandOptions {
  quiet?: boolean;
  json?: boolean;
  timeout: string;
}

export function registerDoctorCommand(program: Command, context: CliContext): void {
  program
    .command('doctor')
    .description('Check Ollama, the models, the data directory, Qdrant and the chat tokens, with fixes')
    .option('-q, --quiet', 'print only problems (for health checks)')
    .option('--json', 'print the results as JSON')
    .option('--timeout <seconds>', 'how long to wait for each server', '3')
    .action(async (options: DoctorCommandOptions) => {
      const report = await diagnose(context, Number(options.timeout) * 1000 || 3_000);
      const output = context.output;
      if (options.json) output.write(`${JSON.stringify(report, null, 2)}\n`);
      else output.write(renderReport(report, { quiet: options.quiet ?? false, color: useColor(output) }));
      if (!report.ok) process.exitCode = 1;
    });
}

async function diagnose(context: CliContext, timeoutMs: number): Promise<DoctorReport> {
  let config: Config;
  try {
    config = context.config();
  } catch (error) {
    if (!isRagentError(error) || error.code !== 'CONFIG_INVALID') throw error;
    const result: CheckResult = {
      title: 'Configuration',
      status: 'fail',
      detail: 'the environment or .env file has invalid values',
      fix: error.message
        .split('\n')
        .slice(1)
        .map((line) => line.replace(/^- /, '')),
    };
    return { results: [result], ok: false };
  }
  const { runDoctor } = await import('../../../doctor/run-doctor.ts');
  const { checkPlatforms, checkPlatformsOnline } = await import('../../../platforms/check-platforms.ts');
  return runDoctor(config, {
    timeoutMs,
    platformChecks: checkPlatforms,
    platformChecksOnline: checkPlatformsOnline,
  });
}

const marks: Record<CheckStatus, { symbol: string; color: string }> = {
  pass: { symbol: '✓', color: '\u001b[32m' },
  fail: { symbol: '✗', color: '\u001b[31m' },
  warn: { symbol: '!', color: '\u001b[33m' },
  skip: { symbol: '-', color: '\u001b[2m' },
};

export function renderReport(report: DoctorReport, options: { quiet: boolean; color: boolean }): string {
  const paint = (status: CheckStatus, text: string) =>
    options.color ? `${marks[status].color}${text}\u001b[0m` : text;
  const shown = options.quiet ? report.results.filter((result) => result.status === 'fail') : report.results;
  const width = Math.max(0, ...shown.map((result) => result.title.length));
  const lines: string[] = [];
  for (const result of shown) {
    lines.push(
      `${paint(result.status, marks[result.status].symbol)} ${result.title.padEnd(width)}  ${result.detail}`,
    );
    for (const step of result.fix ?? []) lines.push(`${' '.repeat(width + 4)}→ ${step}`);
  }
  const failures = report.results.filter((result) => result.status === 'fail').length;
  const warnings = report.results.filter((result) => result.status === 'warn').length;
  if (!options.quiet || failures > 0) {
    lines.push('');
    lines.push(
      failures > 0
        ? paint(
            'fail',
            `${plural(failures, 'problem')} to fix${warnings ? `, ${plural(warnings, 'warning')}` : ''}.`,
          )
        : paint('pass', `Ready${warnings ? ` (${plural(warnings, 'warning')})` : ''}.`),
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function useColor(output: NodeJS.WritableStream): boolean {
  return Boolean((output as { isTTY?: boolean }).isTTY) && !process.env.NO_COLOR;
}
