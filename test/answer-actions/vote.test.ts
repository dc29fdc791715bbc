import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionValue } from '../../src/answer-actions/answer-buttons.ts';
import { runAnswerAction } from '../../src/answer-actions/run-answer-action.ts';
import { vote, voteReply } from '../../src/answer-actions/vote.ts';
import { type ActionFixture, actor, openActionFixture, request, threadId } from './action-fixture.ts';

describe('👍/👎 on an answer', () => {
  let fixture: ActionFixture;
  beforeEach(async () => {
    fixture = await openActionFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });

  it('keeps one vote per person, the latest; a 👍 thanks and hands nothing off', async () => {
    const bob = actor('U-BOB');
    expect(await vote(fixture.context, request(bob), { vote: 'up', value: 'v' })).toEqual({
      text: 'Thanks — glad it helped.',
    });
    expect(fixture.posted).toEqual([]);
    await vote(fixture.context, request(bob), { vote: 'down', value: 'v' });
    const votes = await fixture.context.services.coordination.listFeedback({ threadId });
    expect(votes).toEqual([expect.objectContaining({ user: 'U-BOB', value: 'down', answerId: 'a1' })]);
  });

  it('asks why after a 👎, with the reasons carrying the value, and hands the thread to a person once', async () => {
    const outcome = await vote(fixture.context, request(actor('U-BOB')), { vote: 'down', value: 'the-ids' });
    expect(outcome.text).toContain('What was wrong');
    expect(outcome.buttons?.map((button) => button.value)).toEqual(Array(5).fill('the-ids'));
    await vote(fixture.context, request(actor('U-EVE')), { vote: 'down', value: 'the-ids' });
    expect(fixture.posted).toEqual([[threadId, 'G-DEFAULT']]);
    const [turn] = await fixture.context.services.turnHistory.listTurns();
    expect(turn).toMatchObject({ outcome: 'handed-off', question: 'How do loops work?', user: 'U-BOB' });
  });

  it('keeps the 👎 and still asks why when the hand-off line cannot be posted', async () => {
    fixture.failPost();
    const outcome = await vote(fixture.context, request(actor('U-BOB')), { vote: 'down', value: 'v' });
    expect(outcome).toEqual(voteReply('down', 'v'));
    expect(await fixture.context.services.coordination.listFeedback({ threadId })).toHaveLength(1);
    expect(fixture.posted).toEqual([]);
  });

  it('takes a pressed 👍/👎 like any other button, the reasons carrying what the platform’s buttons carry', async () => {
    const pressed = request(actor('U-BOB'));
    expect(await runAnswerAction(fixture.context, 'vote:down', pressed)).toEqual(
      voteReply('down', actionValue(pressed)),
    );
    const byAnswer = { ...fixture.context, buttonValue: (ids: { answerId: string }) => ids.answerId };
    expect(await runAnswerAction(byAnswer, 'vote:up', pressed)).toEqual(voteReply('up', 'a1'));
    const votes = await fixture.context.services.coordination.listFeedback({ threadId });
    expect(votes.map((each) => each.value)).toEqual(['up']);
  });
});
