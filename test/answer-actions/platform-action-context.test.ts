import { afterEach, describe, expect, it } from 'vitest';
import { platformActionContext } from '../../src/answer-actions/platform-action-context.ts';
import { runAnswerAction } from '../../src/answer-actions/run-answer-action.ts';
import { testPlatform } from '../support/turn-ports.ts';
import {
  type ActionFixture,
  actor,
  openActionFixture,
  request,
  testMarkup,
  threadId,
} from './action-fixture.ts';

describe('the answer actions’ context from what the platform declared', () => {
  let fixture: ActionFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
  });

  it('hands off through the platform’s own hand-off, recorded under its name with its thread link', async () => {
    fixture = await openActionFixture();
    const posted: Array<[string, string]> = [];
    const platform = Object.assign(testPlatform('chat'), {
      threadLink: (place: { threadId: string }) => `https://chat.example/open/${place.threadId}`,
      handOff: {
        fallback: 'G-PLATFORM',
        post: async (thread: string, target: string) => {
          posted.push([thread, target]);
        },
      },
    });
    const context = platformActionContext(fixture.context.services, platform, testMarkup);
    expect(context).toMatchObject({ platform: 'chat', markup: testMarkup, logger: platform.logger });
    expect(context.buttonValue).toBeUndefined();
    const outcome = await runAnswerAction(context, 'ask-person', request(actor('U-BOB')));
    expect(outcome.text).toContain('a person will follow up');
    expect(posted).toEqual([[threadId, 'G-PLATFORM']]);
    const [turn] = await fixture.context.services.turnHistory.listTurns();
    expect(turn).toMatchObject({
      platform: 'chat',
      outcome: 'handed-off',
      link: `https://chat.example/open/${threadId}`,
    });
  });

  it('hands off to nobody where the platform declared no hand-off, and keeps what its buttons carry', async () => {
    fixture = await openActionFixture();
    const buttonValue = (ids: { answerId: string }) => ids.answerId;
    const context = platformActionContext(
      fixture.context.services,
      testPlatform('chat'),
      testMarkup,
      buttonValue,
    );
    expect(context.buttonValue).toBe(buttonValue);
    const outcome = await runAnswerAction(context, 'ask-person', request(actor('U-BOB')));
    expect(outcome.text).toContain('Nobody is set up to follow up');
    expect(await fixture.context.services.turnHistory.listTurns()).toEqual([]);
  });
});
