/**
 * A private answer (`/ragent ask`) that a crash cut short: the next start tells the asker, privately
 * (`chat.postEphemeral`), to ask again — never the channel, which must not learn of the question.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { defaultChannel, defaultUser, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: a private answer after a crash', { timeout: 90_000 }, () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('tells the asker privately to ask again, and posts nothing in the channel', async () => {
    harness = await startSlackHarness();
    const h = harness;
    await h.crashMidTurn(() =>
      h.sender.command(
        slashCommand({
          team: h.slack.teamId,
          channel: defaultChannel,
          user: defaultUser,
          text: 'ask Q-crashed: how do I loop over files?',
          responseUrl: h.slack.responseUrl('crashed'),
        }),
      ),
    );
    // Cut short: only the private "working…" note was shown.
    expect(h.slack.responses('crashed').map((post) => post.replace_original)).toEqual([false]);

    await h.resume();
    const told = h.slack
      .callsTo('chat.postEphemeral')
      .filter((call) => /restarted before it could finish/.test(JSON.stringify(call.body)));
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toMatchObject({ channel: defaultChannel, user: defaultUser });
    expect(h.slack.messages(defaultChannel)).toEqual([]);
  });
});
