/**
 * Runs `ragent <args>` in this process through the real program, with an environment and output of its
 * own: no platform token or Qdrant URL leaks in from the process environment (an empty value means
 * "unset"). Returns the exit code, what was printed, and what the command threw (commands throw their
 * RagentErrors; the entry point renders them).
 */
import { PassThrough } from 'node:stream';
import { createCliContext } from '../../src/adapters/cli/cli-context.ts';
import { buildProgram } from '../../src/cli.ts';

export interface CliRun {
  code: number;
  text: string;
  /** What went to the progress stream (stderr): progress lines and notices. */
  notices: string;
  thrown: unknown;
}

export async function runCli(args: string[], environment: Record<string, string>): Promise<CliRun> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const progress = new PassThrough();
  let notices = '';
  progress.on('data', (chunk: Buffer) => {
    notices += chunk.toString('utf8');
  });
  const context = {
    ...createCliContext({
      SLACK_BOT_TOKEN: '',
      SLACK_APP_TOKEN: '',
      SLACK_SIGNING_SECRET: '',
      DISCORD_TOKEN: '',
      DISCORD_APPLICATION_ID: '',
      QDRANT_URL: '',
      ...environment,
    }),
    output,
    progress,
  };
  process.exitCode = undefined;
  let thrown: unknown;
  try {
    await buildProgram(context).parseAsync(['node', 'ragent', ...args]);
  } catch (error) {
    thrown = error;
  }
  const code = process.exitCode ?? 0;
  process.exitCode = undefined;
  await context.close();
  return { code, text, notices, thrown };
}
