/**
 * RAGENT_ADMINS on Slack: a listed user who is not a workspace admin may run admin commands (here
 * `/ragent use`); an unlisted one is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { defaultUser, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: RAGENT_ADMINS', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness({ environment: { RAGENT_ADMINS: 'UOPS, UOTHER' } });
    harness.slack.addUser({ id: defaultUser, name: 'alice' });
    harness.slack.addUser({ id: 'UOPS', name: 'ops' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function command(text: string, channel: string, user: string): Promise<string> {
    const responseId = `${text}-${channel}-${user}`;
    await harness.sender.command(
      slashCommand({
        team: harness.slack.teamId,
        channel,
        user,
        text,
        responseUrl: harness.slack.responseUrl(responseId),
      }),
    );
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(responseId);
      return posts.length > 0 ? posts : undefined;
    });
    return String(reply?.text);
  }

  it('lets a listed user link channels, and still refuses an unlisted member', async () => {
    expect(await command('use <#C0ONCALL|oncall>', 'C0EU', defaultUser)).toMatch(
      /Only a workspace admin can link/,
    );
    expect(await command('use <#C0ONCALL|oncall>', 'C0EU', 'UOPS')).toMatch(/now also searches/);
    expect(await harness.services.coordination.linkedChannels(`slack:${harness.slack.teamId}:C0EU`)).toEqual([
      `slack:${harness.slack.teamId}:C0ONCALL`,
    ]);
  });
});
