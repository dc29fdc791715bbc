import { describe, expect, it } from 'vitest';
import type { PlanStep, Reply } from '../../src/core/chat-platform.ts';
import { createLogger } from '../../src/logger.ts';
import { openFirstReplySurface, openReplySurface } from '../../src/replies/open-reply-surface.ts';
import { PlaceRefusals, type RefusalsHere } from '../../src/replies/place-refusals.ts';
import type { PlanCards } from '../../src/replies/plan-cards.ts';
import type { ReplyPort } from '../../src/replies/reply-port.ts';
import { replySurface } from '../../src/replies/reply-surface.ts';
import { loadingLines } from '../../src/turns/messages-en.ts';

/**
 * A platform as a plain object: a thread of text messages, an optional stream and status line, and
 * switches that make it refuse a delete, an edit or a stream, as real platforms do.
 */
function platform(
  options: {
    deleteFails?: boolean;
    editFails?: boolean;
    stream?: 'works' | 'refused';
    statusLine?: boolean | 'refused';
    textInNewMessage?: boolean;
    /** Refusals shared with other surfaces (by default this platform's own, in place C1). */
    refusals?: RefusalsHere;
  } = {},
) {
  const messages = new Map<string, string>();
  const streams = new Map<string, { text: string; stopped?: string }>();
  const statusLines: string[] = [];
  const rotations: Array<readonly string[]> = [];
  const refusals = options.refusals ?? { learnt: new PlaceRefusals(), place: 'C1' };
  let next = 0;
  const id = () => {
    next += 1;
    return `m${next}`;
  };
  const port: ReplyPort<string> = {
    logger: createLogger({ level: 'silent' }),
    post: async (message) => {
      const posted = id();
      messages.set(posted, message);
      return posted;
    },
    edit: async (target, message) => {
      if (options.editFails && message !== 'note') throw new Error('edit refused');
      messages.set(target, message);
    },
    delete: async (target) => {
      if (options.deleteFails) throw new Error('delete refused');
      messages.delete(target);
    },
    render: {
      status: (status) => (status.kind === 'working' ? `⏳ ${status.line}` : '⏳ files'),
      // Parts of 40 characters, the last marked as being written.
      streamingText: (text) =>
        (text.match(/[\s\S]{1,40}/g) ?? []).map((part, index, all) =>
          index === all.length - 1 ? `${part}…` : part,
        ),
      reply: (reply) => (reply.kind === 'answer' ? reply.answer.markdown.split('|') : [reply.kind]),
      // A rich message's simpler form drops its richness.
      simpler: (message) => (message.startsWith('rich ') ? message.slice('rich '.length) : undefined),
      leftoverNote: 'note',
    },
    location: (last): Record<string, string> => (last ? { last } : {}),
    refusals,
    ...(options.textInNewMessage ? { textInNewMessage: true } : {}),
    ...(options.statusLine
      ? {
          statusLine: {
            maxLength: 40,
            show: async (line: string, rotating: readonly string[]) => {
              if (options.statusLine === 'refused') throw new Error('not here');
              statusLines.push(line || '(cleared)');
              rotations.push(rotating);
            },
          },
        }
      : {}),
    ...(options.stream
      ? {
          stream: {
            refuses: (error: unknown) => error instanceof Error && error.message === 'streaming refused',
            safeText: (text: string) => text.replace(/@/g, '@\u2060'),
            start: async (text: string) => {
              if (options.stream === 'refused') throw new Error('streaming refused');
              const started = id();
              streams.set(started, { text });
              return started;
            },
            append: async (target: string, text: string) => {
              const stream = streams.get(target);
              if (stream) stream.text += text;
            },
            // What goes under a stopped stream: a rich message's closing is refused, a plain one's taken.
            closing: (message: string) => `under ${message}`,
            stop: async (target: string, closing: string | undefined) => {
              if (closing?.startsWith('under rich ')) throw new Error('closing refused');
              const stream = streams.get(target);
              if (stream) stream.stopped = closing;
              messages.set(target, stream?.text ?? '');
            },
            refusesClosing: (error: unknown) => error instanceof Error && error.message === 'closing refused',
          },
        }
      : {}),
  };
  return { messages, streams, statusLines, rotations, refusals: refusals.learnt, port };
}

function answer(markdown: string): Reply {
  return {
    kind: 'answer',
    threadId: 't',
    answer: { id: 'a1', markdown, body: markdown, sources: [] } as never,
  };
}

describe('the one reply surface, over a platform port', () => {
  it('edits the status, then the text into the status message and new parts, and the reply replaces them', async () => {
    const { messages, port } = platform();
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    await surface.showStatus({ kind: 'working', line: 'searching' });
    expect(messages.get('status')).toBe('⏳ searching');
    expect(surface.nextTextIsEdit).toBe(true);
    await surface.showText?.('a'.repeat(50));
    expect([...messages.values()]).toEqual([`${'a'.repeat(40)}`, `${'a'.repeat(10)}…`]);
    expect(surface.location).toEqual({ last: 'm1' });
    await surface.finish(answer('the answer'));
    expect([...messages.values()]).toEqual(['the answer']);
  });

  it('posts the first text as a new message and deletes the status where edits are left for later', async () => {
    const { messages, port } = platform({ textInNewMessage: true });
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    expect(surface.nextTextIsEdit).toBe(false);
    await surface.showText?.('first words');
    expect([...messages.entries()]).toEqual([['m1', 'first words…']]);
    expect(surface.nextTextIsEdit).toBe(true);
    await surface.finish(answer('the answer'));
    expect([...messages.entries()]).toEqual([['m1', 'the answer']]);
  });

  it('streams only what is new, holds back a word that could still become a ping, and stops under the reply', async () => {
    const { messages, streams, port } = platform({ stream: 'works' });
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    expect(surface.nextTextIsEdit).toBe(false);
    await surface.showText?.('Ask @');
    expect([...streams.values()]).toEqual([{ text: 'Ask ' }]);
    // The stream's message took the status message's place.
    expect(messages.has('status')).toBe(false);
    await surface.showText?.('Ask @here now');
    expect(streams.get('m1')?.text).toBe('Ask @\u2060here now');
    await surface.finish(answer('Ask them now.'));
    expect(streams.get('m1')?.stopped).toBe('under Ask them now.');
    expect(messages.get('m1')).toBe('Ask them now.');
  });

  it('reveals a disguised link in streamed text and in edited text alike', async () => {
    const disguised = 'See [https://trusted.example](https://evil.example) now';
    for (const options of [{ stream: 'works' as const }, {}]) {
      const { messages, streams, port } = platform(options);
      const surface = replySurface(port, []);
      await surface.showText?.(disguised);
      const shown =
        [...streams.values()].map((stream) => stream.text).join('') + [...messages.values()].join('');
      expect(shown).toContain('evil.example');
      expect(shown).not.toContain('[https://trusted.example]');
    }
  });

  it('stops a stream with the richer closing, else the simpler one, and sends replies simpler at once where refused', async () => {
    const { messages, streams, refusals, port } = platform({ stream: 'works' });
    const surface = replySurface(port, []);
    await surface.showText?.('text');
    await surface.finish(answer('rich buttons'));
    expect(streams.get('m1')?.stopped).toBe('under buttons');
    expect(messages.get('m1')).toBe('rich buttons');
    // Learnt for the place: the next reply there comes in its simpler form from the start.
    expect(refusals.refuses('richer-form', 'C1')).toBe(true);
    const next = replySurface(port, []);
    await next.finish(answer('rich buttons'));
    expect(messages.get('m2')).toBe('buttons');
    // A reply of several messages puts nothing under the stream.
    const long = replySurface(port, []);
    await long.showText?.('more text');
    await long.finish(answer('one|two'));
    expect(streams.get('m3')?.stopped).toBeUndefined();
  });

  it('falls back to edits when the platform refuses the stream', async () => {
    const { messages, streams, refusals, port } = platform({ stream: 'refused' });
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    expect(surface.nextTextIsEdit).toBe(false);
    await surface.showText?.('some text');
    expect(streams.size).toBe(0);
    expect(messages.get('status')).toBe('some text…');
    // The refusal is remembered for the place: the next answer there is edited from the start.
    expect(refusals.refuses('stream', 'C1')).toBe(true);
    expect(replySurface(port, ['other']).nextTextIsEdit).toBe(true);
    await surface.finish(answer('done'));
    expect([...messages.values()]).toEqual(['done']);
  });

  it('opens the stream with the plan, then sends only the cards that changed, and the text follows in it', async () => {
    const { streams, port } = platform({ stream: 'works' });
    const stream = port.stream;
    if (!stream) throw new Error('no stream');
    const sent: Array<[string, string | undefined, string[]]> = [];
    const withPlan = {
      ...port,
      stream: {
        ...stream,
        plan: {
          refuses: () => false,
          start: async (plan: PlanCards) => {
            sent.push(['start', plan.title, plan.cards.map((card) => `${card.title}:${card.state}`)]);
            return stream.start('');
          },
          append: async (id: string, plan: PlanCards) => {
            sent.push([id, plan.title, plan.cards.map((card) => `${card.title}:${card.state}`)]);
          },
        },
      },
    };
    const surface = replySurface(withPlan, ['status']);
    const step = (title: string, state: PlanStep['state'] = 'in_progress'): PlanStep => ({
      title,
      state,
      documents: [],
    });
    await surface.showPlan?.([step('one'), step('ask @here')]);
    // Nothing changed: nothing is sent.
    await surface.showPlan?.([step('one'), step('ask @here')]);
    await surface.showPlan?.([step('one', 'complete'), step('ask @here')]);
    expect(sent).toEqual([
      ['start', 'Answering in 2 parts', ['one:in_progress', 'ask @\u2060here:in_progress']],
      ['m1', undefined, ['one:complete']],
    ]);
    await surface.showText?.('the text');
    expect([...streams.values()]).toEqual([{ text: 'the text' }]);
  });

  it('where the platform refuses the plan, remembers it for the place and streams the text alone', async () => {
    const { streams, refusals, port } = platform({ stream: 'works' });
    const stream = port.stream;
    if (!stream) throw new Error('no stream');
    const plans: string[] = [];
    const show = async (plan: PlanCards) => {
      if (plan.cards.length > 1) throw new Error('no cards');
      plans.push(plan.cards.map((card) => card.title).join());
    };
    const withPlan = {
      ...port,
      stream: {
        ...stream,
        plan: {
          refuses: (error: unknown) => String(error).includes('no cards'),
          start: async (plan: PlanCards) => {
            await show(plan);
            return stream.start('');
          },
          append: async (_id: string, plan: PlanCards) => show(plan),
        },
      },
    };
    const surface = replySurface(withPlan, ['status']);
    const step = (title: string): PlanStep => ({ title, state: 'in_progress', documents: [] });
    await surface.showPlan?.([step('one')]);
    await surface.showPlan?.([step('one'), step('two'), step('three')]);
    expect(refusals.refuses('plan', 'C1')).toBe(true);
    expect(refusals.refuses('stream', 'C1')).toBe(false);
    // Refused here: no further plan is tried, and the text streams in the stream the plan opened.
    await surface.showPlan?.([step('four')]);
    expect(plans).toEqual(['one']);
    await surface.showText?.('the text');
    expect([...streams.values()]).toEqual([{ text: 'the text' }]);
  });

  it('throws on an error of the stream that is not a refusal, remembering nothing', async () => {
    const { refusals, port } = platform({ stream: 'works' });
    const stream = port.stream;
    if (!stream) throw new Error('no stream');
    const failing = {
      ...port,
      stream: { ...stream, start: () => Promise.reject(new Error('network down')) },
    };
    await expect(replySurface(failing, ['status']).showText?.('some text')).rejects.toThrow('network down');
    expect(refusals.refuses('stream', 'C1')).toBe(false);
  });

  it('posts the reply as a new message when the status message cannot be edited', async () => {
    const { messages, port } = platform({ editFails: true });
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    await surface.finish(answer('the answer'));
    expect(messages.get('m1')).toBe('the answer');
  });

  it('never leaves a stale working message: one it cannot delete becomes the note pointing at the answer', async () => {
    const { messages, port } = platform({ deleteFails: true, textInNewMessage: true });
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    await surface.showText?.('first words');
    // Not deleted yet: it is tried again after the reply.
    expect(messages.get('status')).toBe('⏳ working');
    await surface.finish(answer('the answer'));
    expect(messages.get('status')).toBe('note');
    expect(messages.get('m1')).toBe('the answer');
  });

  it('shows the status on the platform status line when there is no status message, and clears it once', async () => {
    const { messages, statusLines, rotations, port } = platform({ statusLine: true });
    const surface = replySurface(port, []);
    await surface.showStatus({ kind: 'working', line: 'reading bash.pdf' });
    // Cut to what the platform shows; the progress line alone rotates under it.
    await surface.showStatus({ kind: 'working', line: `reading ${'x'.repeat(50)}.pdf` });
    await surface.finish({ kind: 'restarted' });
    await surface.finish({ kind: 'restarted' });
    const long = `reading ${'x'.repeat(32)}`;
    expect(statusLines).toEqual(['reading bash.pdf', long, '(cleared)']);
    expect(rotations).toEqual([['reading bash.pdf'], [long], []]);
    expect([...messages.values()]).toEqual(['restarted', 'restarted']);
  });

  it('opens on the status line where the place takes it, learnt once, else with a status message', async () => {
    const learnt = new PlaceRefusals();
    const working = platform({ statusLine: true, refusals: { learnt, place: 'C1' } });
    await openReplySurface(working.port);
    expect(working.statusLines).toEqual(['working on it…']);
    // The catalogue's loading lines rotate under it until progress comes.
    expect(working.rotations).toEqual([loadingLines]);
    expect(working.messages.size).toBe(0);
    const refused = platform({ statusLine: 'refused', refusals: { learnt, place: 'C2' } });
    const surface = await openReplySurface(refused.port);
    expect([...refused.messages.values()]).toEqual(['⏳ Working on it…']);
    expect(await learnt.statusLineTry('C2')).toBe(false);
    // The next turn in that place does not try the status line again.
    const next = platform({ statusLine: true, refusals: { learnt, place: 'C2' } });
    await openReplySurface(next.port);
    expect(next.statusLines).toEqual([]);
    expect([...next.messages.values()]).toEqual(['⏳ Working on it…']);
    // The status message shows the status from then on, not the status line.
    await surface.showStatus({ kind: 'working', line: 'searching' });
    expect([...refused.messages.values()]).toEqual(['⏳ searching']);
  });

  it('replaces what was written with a longer reply in order, further parts posted', async () => {
    const { messages, port } = platform();
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    await surface.showText?.('a'.repeat(50));
    await surface.finish(answer('one|two|three'));
    expect([...messages.values()]).toEqual(['one', 'two', 'three']);
  });

  it('deletes the parts a shorter reply no longer needs, or turns them into the note where it cannot', async () => {
    for (const [deleteFails, expected] of [
      [false, ['the answer']],
      [true, ['the answer', 'note', 'note']],
    ] as const) {
      const { messages, port } = platform({ deleteFails });
      messages.set('status', '⏳ working');
      const surface = replySurface(port, ['status']);
      await surface.showText?.('a'.repeat(100));
      expect(messages.size).toBe(3);
      await surface.finish(answer('the answer'));
      expect([...messages.values()]).toEqual(expected);
    }
  });

  it('a later reply (after an overdue notice) follows as new messages', async () => {
    const { messages, port } = platform();
    messages.set('status', '⏳ working');
    const surface = replySurface(port, ['status']);
    await surface.finish({ kind: 'overdue', seconds: 60, reference: 'r' });
    await surface.finish(answer('late answer'));
    expect([...messages.entries()]).toEqual([
      ['status', 'overdue'],
      ['m1', 'late answer'],
    ]);
  });

  it('opens the status in the first place that lets it be posted, moving on only where posting is refused', async () => {
    const refusing = (message: string) => {
      const { port } = platform();
      return { ...port, post: () => Promise.reject(new Error(message)) };
    };
    const open = platform();
    const cannotPost = (error: unknown) => String(error).includes('not_in_channel');
    const first = { kind: 'working', line: 'reading' } as const;
    const surface = await openFirstReplySurface([refusing('not_in_channel'), open.port], first, cannotPost);
    expect([...open.messages.values()]).toEqual(['⏳ reading']);
    expect(surface.location).toEqual({ last: 'm1' });
    await expect(
      openFirstReplySurface([refusing('rate_limited'), open.port], first, cannotPost),
    ).rejects.toThrow('rate_limited');
    await expect(openFirstReplySurface([refusing('not_in_channel')], first, cannotPost)).rejects.toThrow(
      'not_in_channel',
    );
    expect(open.messages.size).toBe(1);
  });
});
