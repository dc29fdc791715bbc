/**
 * A press read and shown the same on every platform: the place is where it was pressed, a button of
 * another place is ignored, and an outcome goes to the form, the verified mark or the private text.
 */
import { describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../src/answer-actions/answer-action.ts';
import { actionValue } from '../../src/answer-actions/answer-buttons.ts';
import { idsPressedHere, pressRequest, showActionOutcome } from '../../src/answer-actions/answer-press.ts';
import { reasonWordsForm } from '../../src/answer-actions/choose-reason.ts';
import { createLogger } from '../../src/logger.ts';
import { placesOf } from '../../src/turns/place-sets.ts';
import { actor } from './action-fixture.ts';

const logger = createLogger({ level: 'silent' });
const chatThreads = { platform: 'chat', count: 3 };

describe('a press of an answer button', () => {
  it('trusts a button only for a thread of the place it was pressed in', () => {
    const value = actionValue({ threadId: 'chat:W1:C1:100', answerId: 'a1' });
    expect(idsPressedHere(value, { ...chatThreads, here: ['W1', 'C1'] }, logger)).toMatchObject({
      threadId: 'chat:W1:C1:100',
      answerId: 'a1',
    });
    expect(idsPressedHere(value, { ...chatThreads, here: ['W1'] }, logger)).toBeDefined();
    for (const here of [
      ['W1', 'C2'],
      ['W2', 'C1'],
      ['W', 'C1'],
      ['W1', ''],
    ])
      expect(idsPressedHere(value, { ...chatThreads, here }, logger)).toBeUndefined();
    expect(idsPressedHere(value, { platform: 'other', count: 3, here: ['W1'] }, logger)).toBeUndefined();
    expect(idsPressedHere('not json', { ...chatThreads, here: ['W1'] }, logger)).toBeUndefined();
  });

  it('takes its place from where it was pressed: a channel’s set, or none in a DM', () => {
    const places = placesOf('chat', 'workspace');
    const ids = { threadId: 'chat:W1:C1:100', answerId: 'a1' };
    const inChannel = pressRequest(
      places,
      { place: 'W1', channel: 'C1', inDirectMessage: false },
      actor('u'),
      ids,
    );
    expect(inChannel.place).toEqual({
      inDirectMessage: false,
      channelScope: places.channelScope('W1', 'C1'),
    });
    const inDm = pressRequest(places, { place: 'W1', channel: 'D1', inDirectMessage: true }, actor('u'), ids);
    expect(inDm).toMatchObject({ answerId: 'a1', threadId: ids.threadId, place: { inDirectMessage: true } });
  });

  it('shows a form instead of anything else, and marks a verified answer before telling', async () => {
    const shown: string[] = [];
    const view = {
      openForm: async () => shown.push('form'),
      markVerified: async (name: string) => shown.push(`verified by ${name}`),
      tell: async (text: string, buttons: readonly unknown[] | undefined) =>
        shown.push(`${text} (${buttons?.length ?? 0} buttons)`),
    };
    const outcomes: ActionOutcome[] = [
      { form: reasonWordsForm, text: 'never said' },
      { text: 'Verified.', verifiedBy: 'Ann' },
      { text: 'Why?', buttons: [] },
    ];
    for (const outcome of outcomes) await showActionOutcome(outcome, view);
    expect(shown).toEqual(['form', 'verified by Ann', 'Verified. (0 buttons)', 'Why? (0 buttons)']);
  });
});
