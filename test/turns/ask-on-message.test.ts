/**
 * "Ask ragent" on a message, decided once in the core: which messages are not questions (told to the
 * asker alone), the one key per message, the thread's context before the question or after it, and
 * the asker as the turn's user.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerJob, PlatformTurns } from '../../src/core/chat-platform.ts';
import { askOnMessage, type MessageAsk, type ThreadRange } from '../../src/turns/ask-on-message.ts';
import {
  askEmptyMessageText,
  askInThreadText,
  askOwnMessageText,
  restartingText,
} from '../../src/turns/messages-en.ts';

function run(
  ask: Partial<MessageAsk>,
  options: { stopping?: boolean; confirms?: boolean; startsThread?: boolean },
) {
  const jobs: AnswerJob[] = [];
  const told: string[] = [];
  const reads: ThreadRange[] = [];
  const opened: string[] = [];
  const turns = {
    stopping: options.stopping ?? false,
    answer: (job: AnswerJob) => jobs.push(job),
  } as unknown as PlatformTurns;
  const request: MessageAsk = {
    platform: 'chat',
    workspace: 'W1',
    channel: 'C1',
    messageId: 'M5',
    text: ' How do traps work? ',
    fromBot: false,
    asker: 'UASKER',
    position: 'P9',
    ...ask,
  };
  const done = askOnMessage(turns, request, {
    tell: async (text) => void told.push(text),
    confirms: options.confirms ?? false,
    thread: async () => ({
      threadId: 'chat:W1:T1',
      startsThread: options.startsThread ?? false,
      location: { channel: 'C1', thread: 'T1' },
      scopes: async () => ['chat:W1:C1'],
      open: async (question) => {
        opened.push(question);
        return { location: {}, showStatus: async () => {}, finish: async () => {} };
      },
      read: async (range) => {
        reads.push(range);
        return [];
      },
    }),
  });
  return { done, jobs, told, reads, opened };
}

describe('"Ask ragent" on a message', () => {
  it('refuses ragent’s own message, a message without text, and any while stopping: told privately, nothing run', async () => {
    for (const [ask, stopping, said] of [
      [{ fromBot: true }, false, askOwnMessageText],
      [{ text: '  ' }, false, askEmptyMessageText],
      [{}, true, restartingText],
    ] as const) {
      const { done, jobs, told } = run(ask, { stopping, confirms: true });
      await done;
      expect(told).toEqual([said]);
      expect(jobs).toEqual([]);
    }
  });

  it('answers a reply in its thread with what came before it, as the asker, one key per message', async () => {
    const { done, jobs, told, reads, opened } = run({}, { confirms: true });
    await done;
    expect(told).toEqual([askInThreadText]);
    const [job] = jobs;
    expect(job).toMatchObject({
      text: 'How do traps work?',
      claim: true,
      thread: { threadId: 'chat:W1:T1', position: 'P9' },
      location: { thread: 'T1' },
    });
    // Chosen again (by anyone), the same message has the same key: the runner answers it once.
    const again = run({ asker: 'USOMEONE-ELSE', position: 'P10' }, {});
    await again.done;
    expect(again.jobs[0]?.key).toBe(job!.key);
    const other = run({ messageId: 'M6' }, {});
    await other.done;
    expect(other.jobs[0]?.key).not.toBe(job!.key);
    const { place } = await job!.open();
    expect(place).toEqual({ threadId: 'chat:W1:T1', scopes: ['chat:W1:C1'], user: 'UASKER' });
    expect(opened).toEqual(['How do traps work?']);
    await job!.readThread?.(20);
    expect(reads).toEqual([{ before: 'M5' }]);
  });

  it('asked on a thread’s first message, reads the replies after it (not the question, not its own status)', async () => {
    const { done, jobs, told, reads } = run({}, { startsThread: true });
    await done;
    expect(told).toEqual([]);
    await jobs[0]!.readThread?.(20);
    expect(reads).toEqual([{ exclude: 'M5', skipOwn: true }]);
  });
});
