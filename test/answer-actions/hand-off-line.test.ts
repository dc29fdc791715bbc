import { describe, expect, it } from 'vitest';
import { checkHandOffTarget } from '../../src/answer-actions/check-hand-off-target.ts';
import { postHandOffLine } from '../../src/answer-actions/hand-off-line.ts';
import type { PlatformApi } from '../../src/doctor/platform-api.ts';
import { closedPort } from '../support/free-port.ts';

/** A platform's API where nothing listens. */
const chat: PlatformApi = {
  label: 'Chat',
  base: `http://127.0.0.1:${await closedPort()}/api`,
  baseVariable: 'CHAT_API_URL',
  tokenVariable: 'CHAT_TOKEN',
  authorization: 'Bearer chat-token',
  timeoutMs: 2_000,
};

describe('the hand-off line and its doctor check', () => {
  it('mentions the target in the one sentence, and posts nothing for a target the platform cannot mention', async () => {
    const posted: string[] = [];
    const post = async (text: string) => posted.push(text);
    await postHandOffLine('G-ONCALL', '@oncall', post);
    await expect(postHandOffLine('nobody', undefined, post)).rejects.toThrow(/cannot mention/);
    expect(posted).toEqual(['A person from @oncall will follow up.']);
  });

  it('passes a target found, warns with the fix for one missing, and warns when the platform cannot be asked', async () => {
    expect(
      await checkHandOffTarget(chat, 'G1', async () => ({ status: 'pass', detail: 'group @g exists' })),
    ).toEqual([{ title: 'Chat hand-off', status: 'pass', detail: 'group @g exists' }]);
    const missing = await checkHandOffTarget(chat, 'G1', async () => ({
      status: 'warn',
      detail: 'no G1',
      fix: ['copy it'],
    }));
    expect(missing).toEqual([{ title: 'Chat hand-off', status: 'warn', detail: 'no G1', fix: ['copy it'] }]);
    const unreachable = await checkHandOffTarget(chat, 'G1', async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(unreachable).toEqual([
      { title: 'Chat hand-off', status: 'warn', detail: 'could not ask Chat about G1 (ECONNREFUSED)' },
    ]);
    const nobodyListens = await checkHandOffTarget(chat, 'G1', async (ask) => {
      await ask('groups.list');
      return { status: 'pass', detail: 'never' };
    });
    expect(nobodyListens).toEqual([
      {
        title: 'Chat hand-off',
        status: 'warn',
        detail: expect.stringMatching(/^could not ask Chat about G1 \(.+\)$/),
      },
    ]);
  });
});
