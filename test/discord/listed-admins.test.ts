/**
 * RAGENT_ADMINS on Discord: a listed member without Manage Channels may run admin commands (here
 * `/ragent use`); an unlisted member without the permission is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

describe('Discord: RAGENT_ADMINS', () => {
  const operator = randomUser('operator');
  let harness: DiscordHarness;
  beforeAll(async () => {
    harness = await startDiscordHarness({ environment: { RAGENT_ADMINS: operator.id } });
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function use(channelId: string, target: string, user = randomUser('member')): Promise<string> {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId,
      subcommand: 'use',
      user,
      permissions: '0',
      options: [{ name: 'channel', type: 7, value: target }],
    });
    await harness.discord.waitFor(() => interaction.history.length >= 2, 10_000, '/ragent use');
    return interaction.original?.content ?? '';
  }

  it('lets a listed member link channels, and still refuses an unlisted one', async () => {
    const { discord, guildId } = harness;
    const oncall = discord.addChannel(guildId, 'oncall');
    const oncallEu = discord.addChannel(guildId, 'oncall-eu');
    expect(await use(oncallEu, oncall)).toMatch(/^⚠️ Only a member with Manage Channels/);
    expect(await use(oncallEu, oncall, operator)).toMatch(/now also searches the documents of <#\d+>/);
    expect(await harness.services.coordination.linkedChannels(`discord:${guildId}:${oncallEu}`)).toEqual([
      `discord:${guildId}:${oncall}`,
    ]);
  });
});
