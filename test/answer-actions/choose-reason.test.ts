import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseReason } from '../../src/answer-actions/choose-reason.ts';
import { giveReasonWords } from '../../src/answer-actions/give-reason-words.ts';
import { runAnswerAction } from '../../src/answer-actions/run-answer-action.ts';
import { type ActionFixture, actor, openActionFixture, request, threadId } from './action-fixture.ts';

describe('why a 👎', () => {
  let fixture: ActionFixture;
  beforeEach(async () => {
    fixture = await openActionFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });
  const votes = () => fixture.context.services.coordination.listFeedback({ threadId });

  it('stores a chosen reason with the 👎, and the next choice replaces it', async () => {
    const bob = request(actor('U-BOB'));
    expect((await chooseReason(fixture.context, bob, 'wrong')).text).toContain('your reason was saved');
    await runAnswerAction(fixture.context, 'reason:outdated', bob);
    expect(await votes()).toEqual([
      expect.objectContaining({ value: 'down', reason: 'outdated', user: 'U-BOB' }),
    ]);
  });

  it('asks for words on "Other…" without storing anything yet, then stores them cut to 1,000 characters', async () => {
    const bob = request(actor('U-BOB'));
    const { form, text } = await chooseReason(fixture.context, bob, 'other');
    expect(text).toBeUndefined();
    expect(form).toMatchObject({ title: 'What was wrong?', maxLength: 1_000, submit: 'Send' });
    expect(await votes()).toEqual([]);
    await giveReasonWords(fixture.context, bob, `  ${'x'.repeat(1_200)}  `);
    const [stored] = await votes();
    expect(stored).toMatchObject({ reason: 'other', value: 'down' });
    expect(stored?.comment).toHaveLength(1_000);
  });
});
