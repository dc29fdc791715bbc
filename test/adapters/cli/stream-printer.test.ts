import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderTurnResult } from '../../../src/adapters/cli/commands/chat-command.ts';
import { createStreamPrinter } from '../../../src/adapters/cli/stream-printer.ts';

function printed(write: (printer: ReturnType<typeof createStreamPrinter>) => string): string {
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const printer = createStreamPrinter(output);
  const rest = write(printer);
  return chunks.join('') + rest;
}

describe('the CLI stream printer', () => {
  it('prints a streamed clarification question once, after "? " as when it is not streamed', () => {
    const question = 'Which loop do you mean?';
    const text = printed((printer) => {
      printer.write('Which loop', 'clarification');
      printer.write(question, 'clarification');
      return printer.rest({ kind: 'clarification', question }, renderTurnResult);
    });
    expect(text.split(question)).toHaveLength(2);
    expect(text.trim()).toBe(renderTurnResult({ kind: 'clarification', question }).trim());
  });

  it('prints the clarification whole when what streamed was taken back', () => {
    const question = 'Which loop do you mean?';
    const text = printed((printer) => {
      printer.write('Which one', 'clarification');
      printer.write('', 'clarification');
      return printer.rest({ kind: 'clarification', question }, renderTurnResult);
    });
    expect(text).toContain(`? ${question}`);
  });
});
