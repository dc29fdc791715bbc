import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAnswerAction } from '../../src/answer-actions/run-answer-action.ts';
import { verify } from '../../src/answer-actions/verify.ts';
import {
  type ActionFixture,
  actor,
  channel,
  openActionFixture,
  request,
  testMarkup,
} from './action-fixture.ts';

describe('Verify on an answer', () => {
  let fixture: ActionFixture;
  beforeEach(async () => {
    fixture = await openActionFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });
  const verified = () => fixture.context.services.verifiedAnswers.listVerifiedAnswers();

  it('makes the answer a verified one of the channel’s set, by whoever manages the place, named as text', async () => {
    const outcome = await verify(fixture.context, request(actor('U-ADA', true)));
    expect(outcome).toEqual({ text: expect.stringContaining('Verified:'), verifiedBy: 'U-ADA-name' });
    expect(await verified()).toEqual([
      expect.objectContaining({
        scope: channel,
        verifiedBy: 'U-ADA',
        question: 'How do loops work?',
        answer: 'A loop repeats [1].',
        sources: [{ file: 'loops.pdf', pages: [3, 3], documentId: 'd1' }],
      }),
    ]);
  });

  it('refuses a member, naming who may, and stores nothing', async () => {
    expect((await verify(fixture.context, request(actor('U-BOB')))).text).toBe(
      '[!] Only a workspace admin can verify answers. Nothing was changed.',
    );
    const narrower = {
      ...fixture.context,
      markup: { ...testMarkup, terms: { ...testMarkup.terms, placeAdmin: 'a member with Manage Server' } },
    };
    expect((await verify(narrower, request(actor('U-BOB')))).text).toContain(
      'Only a member with Manage Server can',
    );
    expect(await verified()).toEqual([]);
  });

  it('verifies nothing in a direct message, or for an answer of another thread', async () => {
    const ada = actor('U-ADA', true);
    const inDirectMessage = await verify(fixture.context, request(ada, { place: { inDirectMessage: true } }));
    expect(inDirectMessage.text).toContain('verify one in a channel');
    const elsewhere = await verify(fixture.context, request(ada, { threadId: 'chat:W1:C1:999' }));
    expect(elsewhere).toEqual({ text: expect.stringContaining('no record of this answer') });
    expect(await verified()).toEqual([]);
  });

  it('tells the presser when the admin check itself fails, the failure shown literally', async () => {
    const outcome = await runAnswerAction(
      fixture.context,
      'verify',
      request(actor('U-ADA', new Error('rate *limited*'))),
    );
    expect(outcome).toEqual({ text: expect.stringMatching(/^\[!\] «.*»$/) });
    expect(await verified()).toEqual([]);
  });
});
