/**
 * `/ragent ask` and the private surface, written once in the core: what is refused (told to the asker
 * alone), how the private turn is run, and what a private reply carries (note, Share) in which order.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerJob, PlatformTurns, Reply } from '../../src/core/chat-platform.ts';
import { createLogger } from '../../src/logger.ts';
import { type PrivateReplyExtras, privateSurface } from '../../src/replies/private-surface.ts';
import {
  askEmptyText,
  privateAnswerFooterText,
  privateClarificationFooterText,
  restartingText,
  shareButtonText,
} from '../../src/turns/messages-en.ts';
import { privateAskerOf } from '../../src/turns/private-answers.ts';
import { runPrivateAsk } from '../../src/turns/private-ask.ts';
import { makeAnswer } from '../support/make-answer.ts';

/** A platform's handle on the runner that records the jobs it is given. */
function recordingTurns(stopping = false) {
  const jobs: AnswerJob[] = [];
  const turns = { stopping, answer: (job: AnswerJob) => jobs.push(job) } as unknown as PlatformTurns;
  return { turns, jobs };
}

const asker = { platform: 'chat', workspace: 'W:1', channel: 'C1', user: 'U1' };
const question = (text: string) => ({
  asker,
  id: 'cmd-1',
  text,
  reference: '/ragent ask cmd-1',
  position: '1700000000.000100',
  location: { channel: 'C1', privateTo: 'U1' },
  scopes: async () => ['chat:W:1:C1'],
  open: async () => ({ location: {}, showStatus: async () => {}, finish: async () => {} }),
});

describe('private asks: /ragent ask', () => {
  it('tells the asker to type a question when there is none, and starts nothing', async () => {
    const { turns, jobs } = recordingTurns();
    const told: string[] = [];
    await runPrivateAsk(turns, question('   '), async (text) => void told.push(text));
    expect(told).toEqual([askEmptyText]);
    expect(jobs).toEqual([]);
  });

  it('tells the asker ragent is restarting while it stops, and starts nothing', async () => {
    const { turns, jobs } = recordingTurns(true);
    const told: string[] = [];
    await runPrivateAsk(turns, question('how do loops work?'), async (text) => void told.push(text));
    expect(told).toEqual([restartingText]);
    expect(jobs).toEqual([]);
  });

  it('runs the question in the asker’s own conversation, with the channel’s scopes', async () => {
    const { turns, jobs } = recordingTurns();
    const told: string[] = [];
    await runPrivateAsk(turns, question('  how do loops work? '), async (text) => void told.push(text));
    expect(told).toEqual([]);
    const [job] = jobs;
    expect(job).toMatchObject({ text: 'how do loops work?', claim: true, location: { privateTo: 'U1' } });
    expect(privateAskerOf(job!.thread.threadId)).toEqual(asker);
    const { place } = await job!.open();
    expect(place).toEqual({ threadId: job!.thread.threadId, scopes: ['chat:W:1:C1'], user: 'U1' });
  });
});

describe('private asks: the private surface', () => {
  /** A surface over messages that are plain strings, recording each send; `shown`: the status message. */
  const surface = (shown: string[] = []) => {
    const sent: Array<[string, string, string | number]> = [];
    const extras: PrivateReplyExtras[] = [];
    const shownSurface = privateSurface<string>(
      {
        logger: createLogger({ level: 'silent' }),
        location: () => ({ privateTo: 'U1' }),
        post: async (message, index) => {
          sent.push(['post', message, index]);
          return `M${index}`;
        },
        edit: async (id, message) => void sent.push(['edit', message, id]),
        delete: async (id) => void sent.push(['delete', '', id]),
        render: {
          status: (status) => `status:${status.kind}`,
          leftoverNote: 'below',
          streamingText: (text) => [text],
          reply: (reply) => (reply.kind === 'answer' ? reply.answer.body.split('|') : [reply.kind]),
        },
        withExtras: (last, given) => {
          extras.push(given);
          return `${last}${given.share ? ' [share]' : ''}${given.footer ? ' [note]' : ''}`;
        },
      },
      shown,
    );
    return { shown: shownSurface, sent, extras };
  };

  it('replaces the status with the first part, adds the rest, and puts Share and the note under the last', async () => {
    const { shown, sent, extras } = surface();
    const answer = { ...makeAnswer('one|two|three'), id: 'A7' };
    await shown.finish({ kind: 'answer', answer, threadId: 'chat:W:C:private-U1' });
    expect(sent).toEqual([
      ['post', 'one', 0],
      ['post', 'two', 1],
      ['post', 'three [share] [note]', 2],
    ]);
    expect(extras).toEqual([
      { footer: privateAnswerFooterText, share: { label: shareButtonText, answerId: 'A7' } },
    ]);
  });

  it('gives a clarifying question the note only, and other replies nothing extra', async () => {
    const { shown, extras, sent } = surface(['S1']);
    await shown.showStatus({ kind: 'working', line: 'Searching…' });
    await shown.finish({ kind: 'clarification', question: 'Which loop?' });
    await shown.finish({ kind: 'restarted' } satisfies Reply);
    // The status message is edited, then replaced by the reply; the later reply follows it.
    expect(sent).toEqual([
      ['edit', 'status:working', 'S1'],
      ['edit', 'clarification [note]', 'S1'],
      ['post', 'restarted', 0],
    ]);
    expect(extras).toEqual([{ footer: privateClarificationFooterText }, {}]);
  });

  it('streams no text: the answer comes whole, in the private messages', async () => {
    const { shown } = surface(['S1']);
    expect(shown.showText).toBeUndefined();
    expect(shown.showPlan).toBeUndefined();
    expect(shown.location).toEqual({ privateTo: 'U1' });
  });
});
