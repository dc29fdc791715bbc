import { afterEach, describe, expect, it } from 'vitest';
import { runAnswerAction } from '../../src/answer-actions/run-answer-action.ts';
import {
  type ActionFixture,
  actor,
  channel,
  openActionFixture,
  request,
  threadId,
} from './action-fixture.ts';

describe('Ask a person', () => {
  let fixture: ActionFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
  });

  it('posts the one line in the thread, records it with the thread’s searched sets and link, once a day', async () => {
    fixture = await openActionFixture();
    const bob = request(actor('U-BOB'));
    expect((await runAnswerAction(fixture.context, 'ask-person', bob)).text).toContain(
      'a person will follow up',
    );
    expect((await runAnswerAction(fixture.context, 'ask-person', bob)).text).toContain('already asked');
    expect(fixture.posted).toEqual([[threadId, 'G-DEFAULT']]);
    const [turn] = await fixture.context.services.turnHistory.listTurns();
    expect(turn).toMatchObject({
      platform: 'chat',
      outcome: 'handed-off',
      scopes: [channel, 'chat:W1', 'shared'],
      link: `https://chat.example/${threadId}`,
    });
  });

  it('hands nothing off in a direct message, or where nobody is set to follow up', async () => {
    fixture = await openActionFixture(null);
    const bob = actor('U-BOB');
    const unset = await runAnswerAction(fixture.context, 'ask-person', request(bob));
    expect(unset.text).toContain('Nobody is set up to follow up');
    await fixture.close();
    fixture = await openActionFixture();
    const direct = request(bob, { place: { inDirectMessage: true } });
    expect((await runAnswerAction(fixture.context, 'ask-person', direct)).text).toContain('Nobody is set up');
    expect(fixture.posted).toEqual([]);
  });

  it('tells the presser when the line cannot be posted', async () => {
    fixture = await openActionFixture();
    fixture.failPost();
    const outcome = await runAnswerAction(fixture.context, 'ask-person', request(actor('U-BOB')));
    // Said in the catalogue's words, shown literally; nothing was recorded as handed off.
    expect(outcome.text).toMatch(/^\[!\] «.+»$/);
    expect(await fixture.context.services.turnHistory.listTurns()).toEqual([]);
  });
});
