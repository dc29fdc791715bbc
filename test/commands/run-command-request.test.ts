/**
 * A chat command's run, the same on every platform: the reply text goes back privately, a failure is
 * logged with the request's reference and told as a warning with what went wrong (as literal text),
 * and a reply the platform refuses is logged, never thrown.
 */
import { describe, expect, it } from 'vitest';
import { runCommandRequest } from '../../src/commands/run-command-request.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import type { ChatMarkup } from '../../src/turns/chat-markup.ts';

const markup = {
  literal: (text: string) => text.replace(/[*<>]/g, '\\$&'),
  icons: { warning: '!', removed: '-', moved: '>', done: '+' },
} as unknown as ChatMarkup;

function replies(refuse = false) {
  const sent: string[] = [];
  const logged: Array<{ msg: string; reference?: string; code?: string }> = [];
  const destination = { write: (line: string) => void logged.push(JSON.parse(line)) };
  return {
    sent,
    logged,
    reply: async (text: string) => {
      if (refuse) throw new Error('expired');
      sent.push(text);
    },
    markup,
    logger: createLogger({ level: 'info', destination }),
    reference: '/ragent T1',
  };
}

describe('running a chat command', () => {
  it('sends the reply text; a handler that answered itself sends nothing more', async () => {
    const out = replies();
    await runCommandRequest(async () => 'Listed.', out);
    await runCommandRequest(async () => undefined, out);
    expect(out.sent).toEqual(['Listed.']);
  });

  it('tells a failure as a literal warning and logs it with the reference', async () => {
    const out = replies();
    await runCommandRequest(async () => {
      throw new RagentError('PERMISSION_DENIED', 'Only *admins* may.');
    }, out);
    expect(out.sent).toEqual(['! Only \\*admins\\* may.']);
    expect(out.logged).toMatchObject([
      { msg: 'command failed', code: 'PERMISSION_DENIED', reference: '/ragent T1' },
    ]);
  });

  it('logs a reply the platform refuses instead of throwing', async () => {
    const out = replies(true);
    await expect(runCommandRequest(async () => 'Listed.', out)).resolves.toBeUndefined();
    expect(out.logged).toMatchObject([{ msg: 'could not answer the command' }]);
  });
});
