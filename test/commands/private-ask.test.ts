/**
 * `/ragent ask` and the private surface, written once in the core: what is refused (told to the asker
 * alone), how the private turn is run, and what a private reply carries (note, Share) in which order.
 */
import { describe, expect, it, vi } from 'vitest';
import { runPrivateAsk } from '../../src/commands/private-ask.ts';
import type { AnswerJob, PlatformTurns, Reply } from '../../src/core/chat-platform.ts';
import { createLogger } from '../../src/logger.ts';
import {
  openPrivateSurface,
  type PrivateReplyPort,
  type PrivateStart,
  privateSurface,
  withPrivateExtras,
} from '../../src/replies/private-surface.ts';
import {
  askEmptyText,
  privateAnswerFooterText,
  privateClarificationFooterText,
  privateWorkingText,
  restartingText,
  shareButtonText,
} from '../../src/turns/messages-en.ts';
import { privateAskerOf } from '../../src/turns/private-answers.ts';
import { makeAnswer } from '../support/make-answer.ts';

/** A platform's handle on the runner that records the jobs it is given. */
function recordingTurns(stopping = false) {
  const jobs: AnswerJob[] = [];
  const turns = { stopping, answer: (job: AnswerJob) => jobs.push(job) } as unknown as PlatformTurns;
  return { turns, jobs };
}

/** Private messages that are plain strings, recorded as they are sent (`reply`, with whether it replaces; `edit`). */
function recordingPort() {
  const sent: Array<[string, string, string | boolean]> = [];
  const port: PrivateReplyPort<string> = {
    logger: createLogger({ level: 'silent' }),
    location: () => ({ privateTo: 'U1' }),
    reply: async (message, replace) => {
      sent.push(['reply', message, replace]);
      return true;
    },
    edit: async (id, message) => void sent.push(['edit', message, id]),
    render: {
      status: (status) => `status:${status.kind === 'working' ? status.line : status.kind}`,
      notice: (text) => `notice:${text}`,
      reply: (reply) => [reply.kind],
      withSmallPrint: (message, note) => `${message} (${note})`,
      withButtonRow: (message, share) => `${message} [${share.label}:${share.answerId}]`,
    },
  };
  return { port, sent };
}

const asker = { platform: 'chat', workspace: 'W:1', channel: 'C1', user: 'U1' };
const question = (text: string, more: { position?: string; shown?: string[] } = {}) => ({
  asker,
  id: 'cmd-1',
  text,
  command: '/ragent',
  scopes: async () => ['chat:W:1:C1'],
  ...recordingPort(),
  ...more,
});

describe('private asks: /ragent ask', () => {
  it('tells the asker to type a question when there is none, and starts nothing', async () => {
    const { turns, jobs } = recordingTurns();
    const asked = question('   ');
    await runPrivateAsk(turns, asked);
    // Nothing is shown yet: the notice follows the command.
    expect(asked.sent).toEqual([['reply', `notice:${askEmptyText}`, false]]);
    expect(jobs).toEqual([]);
  });

  it('tells the asker ragent is restarting while it stops, in place of what the platform shows, and starts nothing', async () => {
    const { turns, jobs } = recordingTurns(true);
    const asked = question('how do loops work?', { shown: ['S1'] });
    await runPrivateAsk(turns, asked);
    expect(asked.sent).toEqual([['reply', `notice:${restartingText}`, true]]);
    expect(jobs).toEqual([]);
  });

  it('runs the question in the asker’s own conversation, with the channel’s scopes', async () => {
    const { turns, jobs } = recordingTurns();
    const asked = question('  how do loops work? ');
    await runPrivateAsk(turns, asked);
    expect(asked.sent).toEqual([]);
    const [job] = jobs;
    expect(job).toMatchObject({ text: 'how do loops work?', claim: true, location: { privateTo: 'U1' } });
    expect(privateAskerOf(job!.thread.threadId)).toEqual(asker);
    const { place } = await job!.open();
    expect(place).toEqual({ threadId: job!.thread.threadId, scopes: ['chat:W:1:C1'], user: 'U1' });
  });

  it('refers to the turn by the command as typed and its id, in the order the platform gives', async () => {
    const { turns, jobs } = recordingTurns();
    await runPrivateAsk(turns, question('how?', { position: '1700000000.000100' }));
    expect(jobs[0]).toMatchObject({
      reference: '/ragent ask cmd-1',
      thread: { position: '1700000000.000100' },
    });
  });

  it('orders a command without a timestamp of its own by when it arrived', async () => {
    const { turns, jobs } = recordingTurns();
    vi.useFakeTimers({ now: 1_700_000_000_250, toFake: ['Date'] });
    try {
      await runPrivateAsk(turns, question('how?'));
    } finally {
      vi.useRealTimers();
    }
    expect(jobs[0]?.thread.position).toBe('1700000000.250000');
  });

  it('shows the private "working…" first where the platform shows nothing yet, and the reply replaces it', async () => {
    const { turns, jobs } = recordingTurns();
    const asked = question('how?');
    await runPrivateAsk(turns, asked);
    const { surface } = await jobs[0]!.open();
    await surface.finish({ kind: 'restarted' });
    expect(asked.sent).toEqual([
      ['reply', `status:${privateWorkingText}`, false],
      ['reply', 'restarted', true],
    ]);
  });

  it('edits what the platform shows already (its acknowledgement) instead of sending the "working…"', async () => {
    const { turns, jobs } = recordingTurns();
    const asked = question('how?', { shown: ['S1'] });
    await runPrivateAsk(turns, asked);
    const { surface } = await jobs[0]!.open();
    await surface.showStatus({ kind: 'working', line: 'Searching…' });
    expect(asked.sent).toEqual([['edit', 'status:Searching…', 'S1']]);
  });
});

describe('private asks: the private surface', () => {
  /**
   * A surface over messages that are plain strings, recording each send: through the short-lived
   * reply (`reply`, with whether it replaces), the lasting post (`post`) or an edit (`edit`).
   */
  const surface = (
    start: PrivateStart = { replaces: true },
    way: { expired?: boolean; refused?: boolean; lasting?: boolean } = {},
  ) => {
    const sent: Array<[string, string, string | boolean]> = [];
    const port: PrivateReplyPort<string> = {
      logger: createLogger({ level: 'silent' }),
      location: () => ({ privateTo: 'U1' }),
      reply: async (message, replace) => {
        if (way.refused) throw new Error('refused');
        if (!way.expired) sent.push(['reply', message, replace]);
        return !way.expired;
      },
      ...(way.lasting ? { post: async (message: string) => void sent.push(['post', message, '']) } : {}),
      edit: async (id, message) => void sent.push(['edit', message, id]),
      render: {
        status: (status) => `status:${status.kind}`,
        notice: (text) => `notice:${text}`,
        reply: (reply) => (reply.kind === 'answer' ? reply.answer.body.split('|') : [reply.kind]),
        withSmallPrint: (message, note) => `${message} (${note})`,
        withButtonRow: (message, share) => `${message} [${share.label}:${share.answerId}]`,
      },
    };
    return { shown: privateSurface(port, start), port, sent };
  };
  const answer = { ...makeAnswer('one|two|three'), id: 'A7' };
  const answered = { kind: 'answer', answer, threadId: 'chat:W:C:private-U1' } satisfies Reply;

  it('replaces the status with the first part, adds the rest, and puts Share and the note under the last', async () => {
    const { shown, sent } = surface();
    await shown.finish(answered);
    expect(sent).toEqual([
      ['reply', 'one', true],
      ['reply', 'two', false],
      ['reply', `three [${shareButtonText}:A7] (${privateAnswerFooterText})`, false],
    ]);
  });

  it('gives a clarifying question the note only, and other replies nothing extra', async () => {
    const { shown, sent } = surface({ shown: ['S1'], replaces: true });
    await shown.showStatus({ kind: 'working', line: 'Searching…' });
    await shown.finish({ kind: 'clarification', question: 'Which loop?' });
    await shown.finish({ kind: 'restarted' } satisfies Reply);
    // The status message is edited, then replaced by the reply; the later reply takes its place.
    expect(sent).toEqual([
      ['edit', 'status:working', 'S1'],
      ['edit', `clarification (${privateClarificationFooterText})`, 'S1'],
      ['reply', 'restarted', true],
    ]);
  });

  it('composes the extras the same way on every platform: the button row under the reply, the note under all', () => {
    const { port } = surface();
    const share = { label: 'Share', answerId: 'A7' };
    expect(withPrivateExtras(port.render, 'last', { footer: 'note', share })).toBe('last [Share:A7] (note)');
    expect(withPrivateExtras(port.render, 'last', { footer: 'note' })).toBe('last (note)');
    expect(withPrivateExtras(port.render, 'last', { share })).toBe('last [Share:A7]');
    expect(withPrivateExtras(port.render, 'last', {})).toBe('last');
  });

  it('streams no text: the answer comes whole, in the private messages', async () => {
    const { shown } = surface({ shown: ['S1'], replaces: true });
    expect(shown.showText).toBeUndefined();
    expect(shown.showPlan).toBeUndefined();
    expect(shown.location).toEqual({ privateTo: 'U1' });
  });

  it('shows the first status through the short-lived reply, and the reply replaces it there', async () => {
    const { port, sent } = surface();
    const shown = await openPrivateSurface(port, { kind: 'working', line: 'Working…' });
    await shown.finish({ kind: 'restarted' });
    expect(sent).toEqual([
      ['reply', 'status:working', false],
      ['reply', 'restarted', true],
    ]);
  });

  it('posts privately where the short-lived reply has expired or refuses, and then replaces nothing', async () => {
    for (const way of [{ expired: true }, { refused: true }]) {
      const { port, sent } = surface({ replaces: false }, { ...way, lasting: true });
      const shown = await openPrivateSurface(port, { kind: 'working', line: 'Working…' });
      await shown.finish(answered);
      expect(sent).toEqual([
        ['post', 'status:working', ''],
        ['post', 'one', ''],
        ['post', 'two', ''],
        ['post', `three [${shareButtonText}:A7] (${privateAnswerFooterText})`, ''],
      ]);
    }
  });

  it('never goes elsewhere where no private way is left: a recorded turn fails, a live one shows nothing more', async () => {
    const recorded = surface({ replaces: true, recorded: true }, { expired: true });
    await expect(recorded.shown.finish({ kind: 'restarted' })).rejects.toThrow(/cannot be told privately/);
    const live = surface({ shown: ['S1'], replaces: true }, { expired: true });
    await live.shown.finish({ kind: 'restarted' });
    expect(live.sent).toEqual([['edit', 'restarted', 'S1']]);
    const late = surface({ replaces: true }, { expired: true });
    await late.shown.finish(answered);
    expect(late.sent).toEqual([]);
  });

  it('throws a refusal of the short-lived reply where there is no lasting private post', async () => {
    const { shown } = surface({ replaces: true }, { refused: true });
    await expect(shown.finish({ kind: 'restarted' })).rejects.toThrow('refused');
  });
});
