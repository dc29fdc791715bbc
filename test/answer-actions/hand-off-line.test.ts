import { describe, expect, it } from 'vitest';
import { checkHandOffTarget } from '../../src/answer-actions/check-hand-off-target.ts';
import { postHandOffLine } from '../../src/answer-actions/hand-off-line.ts';

describe('the hand-off line and its doctor check', () => {
  it('mentions the target in the one sentence, and posts nothing for a target the platform cannot mention', async () => {
    const posted: Array<[string, string, string]> = [];
    const wire = {
      mention: (target: string) => (target.startsWith('G') ? `@${target}` : undefined),
      post: async (thread: string, text: string, target: string) => {
        posted.push([thread, text, target]);
      },
    };
    await postHandOffLine(wire, 'chat:W1:C1:1', 'G-ONCALL');
    await expect(postHandOffLine(wire, 'chat:W1:C1:1', 'nobody')).rejects.toThrow(/cannot hand off/);
    expect(posted).toEqual([['chat:W1:C1:1', 'A person from @G-ONCALL will follow up.', 'G-ONCALL']]);
  });

  it('passes a target found, warns with the fix for one missing, and warns when the platform cannot be asked', async () => {
    expect(
      await checkHandOffTarget('Chat', 'G1', async () => ({ status: 'pass', detail: 'group @g exists' })),
    ).toEqual([{ title: 'Chat hand-off', status: 'pass', detail: 'group @g exists' }]);
    const missing = await checkHandOffTarget('Chat', 'G1', async () => ({
      status: 'warn',
      detail: 'no G1',
      fix: ['copy it'],
    }));
    expect(missing).toEqual([{ title: 'Chat hand-off', status: 'warn', detail: 'no G1', fix: ['copy it'] }]);
    const unreachable = await checkHandOffTarget('Chat', 'G1', async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(unreachable).toEqual([
      { title: 'Chat hand-off', status: 'warn', detail: 'could not ask Chat about G1 (ECONNREFUSED)' },
    ]);
  });
});
