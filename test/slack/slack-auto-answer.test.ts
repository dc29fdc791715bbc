/**
 * Slack's `/ragent autoanswer`: what it says to a wrong argument and in a DM, and that the switch is
 * kept in `bot.sqlite` across a restart (the shared behaviour is the platform contract's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: /ragent autoanswer', () => {
  let harness: SlackHarness;
  let commands = 0;
  beforeAll(async () => {
    harness = await startSlackHarness();
    harness.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function command(text: string, channel = defaultChannel): Promise<string> {
    commands += 1;
    const responseId = `auto-answer-${commands}`;
    await harness.sender.command(
      slashCommand({
        team: harness.slack.teamId,
        channel,
        user: 'UADMIN',
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

  it('says how to use it when the argument is missing or wrong, and that DMs have none', async () => {
    expect(await command('autoanswer')).toMatch(/^Use `\/ragent autoanswer on\|off`/);
    expect(await command('autoanswer maybe')).toMatch(/^Use `\/ragent autoanswer on\|off`/);
    expect(await command('autoanswer on', 'D0DIRECT')).toBe(
      'Auto-answer works in channels, not in direct messages.',
    );
    expect(await command('help', 'D0DIRECT')).not.toContain('Auto-answer');
  });

  it('keeps the switch across a restart, and answers a question after it', async () => {
    expect(await command('autoanswer on')).toMatch(/Auto-answer is on in <#C0GENERAL>/);
    expect(await command('autoanswer on')).toContain('(it already was)');
    await harness.restart();
    expect(await command('docs')).toContain('Auto-answer: on');
    const ts = await harness.message('How do loops work after a restart?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    expect(answer).toBeDefined();
  });
});
