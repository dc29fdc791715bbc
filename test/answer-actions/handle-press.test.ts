/**
 * One press flow for every platform, run against a port that records what it was asked to do: a
 * platform that must answer at once is acknowledged before the place is read or anything stored, a
 * platform that acknowledged already is shown what the store said, and a button's ids of another
 * place do nothing at all.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionValue } from '../../src/answer-actions/answer-buttons.ts';
import { submitReasonWords } from '../../src/answer-actions/give-reason-words.ts';
import { handlePress, type Press, type PressPort } from '../../src/answer-actions/handle-press.ts';
import { feedbackReasonPrompt } from '../../src/turns/messages-en.ts';
import { placesOf } from '../../src/turns/place-sets.ts';
import { type ActionFixture, actor, openActionFixture, threadId } from './action-fixture.ts';

const chatThreads = { platform: 'chat', count: 3 };
const ids = { threadId, answerId: 'a1' };

describe('a press of an answer button, from the platform’s reading to its outcome', () => {
  let fixture: ActionFixture;
  /** What the port was asked to do, in order. */
  let done: string[];
  beforeEach(async () => {
    fixture = await openActionFixture();
    done = [];
  });
  afterEach(async () => {
    await fixture.close();
  });
  const votes = () => fixture.context.services.coordination.listFeedback({ threadId });
  const stored = async () =>
    (await votes()).map((each) => `${each.value}${each.reason ? `:${each.reason}` : ''}`);

  /** `atOnce`: the platform must acknowledge before any I/O (its acknowledgements are recorded). */
  function port(atOnce: boolean): PressPort {
    return {
      places: placesOf('chat', 'workspace'),
      place: async () => {
        done.push('read the place');
        return { place: 'W1', channel: 'C1', inDirectMessage: false };
      },
      ...(atOnce
        ? {
            acknowledge: {
              privately: async () => done.push(`private reply opened (stored: ${await stored()})`),
              update: async () => done.push(`update promised (stored: ${await stored()})`),
            },
          }
        : {}),
      view: (pressed) => ({
        openForm: async (form) => done.push(`form "${form.title}" for ${pressed.answerId}`),
        markVerified: async (name) => done.push(`marked verified by ${name}`),
        tell: async (text, buttons) =>
          done.push(`told "${text}" with ${buttons?.length ?? 0} buttons (stored: ${await stored()})`),
      }),
    };
  }
  const press = (action: Press['action'], who = actor('U-BOB')): Press => ({
    ...(action ? { action } : {}),
    ids,
    actor: who,
  });

  it('thanks a vote at once and stores it after, where the platform must answer at once', async () => {
    await handlePress(fixture.context, press('vote:down'), port(true));
    expect(done).toEqual([`told "${feedbackReasonPrompt}" with 5 buttons (stored: )`, 'read the place']);
    expect(await stored()).toEqual(['down']);
  });

  it('acknowledges Verify and Ask a person before reading the place or storing anything', async () => {
    await handlePress(fixture.context, press('verify', actor('U-ADA', true)), port(true));
    await handlePress(fixture.context, press('ask-person'), port(true));
    expect(done).toEqual([
      'update promised (stored: )',
      'read the place',
      'marked verified by U-ADA-name',
      expect.stringMatching(/^told ".*verified.*" with 0 buttons/i),
      'private reply opened (stored: )',
      'read the place',
      expect.stringMatching(/^told ".*" with 0 buttons/),
    ]);
    expect(fixture.posted).toEqual([[threadId, 'G-DEFAULT']]);
  });

  it('opens the words form for "Other…" first, reading and storing nothing', async () => {
    for (const atOnce of [true, false])
      await handlePress(fixture.context, press('reason:other'), port(atOnce));
    expect(done).toEqual(['form "What was wrong?" for a1', 'form "What was wrong?" for a1']);
    expect(await stored()).toEqual([]);
  });

  it('shows what the store said where the press was acknowledged already', async () => {
    await handlePress(fixture.context, press('vote:down'), port(false));
    await handlePress(fixture.context, press('reason:wrong'), port(false));
    expect(done).toEqual([
      'read the place',
      `told "${feedbackReasonPrompt}" with 5 buttons (stored: down)`,
      'read the place',
      expect.stringMatching(/^told ".*your reason was saved.*" with 0 buttons \(stored: down:wrong\)$/),
    ]);
  });

  it('does nothing for a button whose ids name a thread of another place', async () => {
    const carried = { raw: actionValue(ids), thread: { ...chatThreads, here: ['W1', 'C2'] } };
    for (const action of ['vote:down', 'verify', 'ask-person', 'reason:other'] as const)
      await handlePress(fixture.context, { action, ids: carried, actor: actor('U-ADA', true) }, port(true));
    expect(done).toEqual([]);
    expect(await stored()).toEqual([]);
    expect(fixture.posted).toEqual([]);
    // The same button pressed where its thread is acts.
    const here = { raw: actionValue(ids), thread: { ...chatThreads, here: ['W1', 'C1'] } };
    await handlePress(fixture.context, { action: 'vote:up', ids: here, actor: actor('U-BOB') }, port(true));
    expect(await stored()).toEqual(['up']);
  });

  it('takes the vote from the value where one element carries both, and ignores a value without one', async () => {
    const carrying = (vote: unknown) => ({
      raw: JSON.stringify({ ...ids, vote }),
      thread: { ...chatThreads, here: ['W1', 'C1'] },
    });
    await handlePress(fixture.context, { ids: carrying('sideways'), actor: actor('U-BOB') }, port(false));
    expect(done).toEqual([]);
    await handlePress(fixture.context, { ids: carrying('up'), actor: actor('U-BOB') }, port(false));
    await handlePress(fixture.context, { ids: carrying('down'), actor: actor('U-EVE') }, port(false));
    expect(await stored()).toEqual(['up', 'down']);
  });

  it('stores the words sent back only for a form of this place, and says what to tell', async () => {
    const bob = actor('U-BOB');
    const elsewhere = { raw: actionValue(ids), thread: { ...chatThreads, here: ['W2'] } };
    expect(
      await submitReasonWords(fixture.context, { ids: elsewhere, actor: bob, words: 'old' }),
    ).toBeUndefined();
    expect(await votes()).toEqual([]);
    const here = { raw: actionValue(ids), thread: { ...chatThreads, here: ['W1'] } };
    expect(await submitReasonWords(fixture.context, { ids: here, actor: bob, words: 'old' })).toContain(
      'your reason was saved',
    );
    expect(
      await submitReasonWords(fixture.context, { ids, actor: actor('U-EVE'), words: undefined }),
    ).toContain('your reason was saved');
    expect(await votes()).toEqual([
      expect.objectContaining({ user: 'U-BOB', reason: 'other', comment: 'old' }),
      expect.objectContaining({ user: 'U-EVE', reason: 'other' }),
    ]);
  });
});
