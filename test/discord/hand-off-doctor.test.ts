/**
 * `ragent doctor` asks Discord whether RAGENT_HANDOFF_DISCORD's role exists in a server of the bot and
 * can be mentioned (the role allows it, or the bot has Mention Everyone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkPlatformsOnline } from '../../src/platforms/check-platforms.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';

describe('doctor: the Discord hand-off role', () => {
  let discord: FakeDiscord;
  let guildId: string;
  beforeAll(async () => {
    discord = await startFakeDiscord();
    ({ guildId } = discord.addGuild('alpha'));
  });
  afterAll(async () => {
    await discord?.close();
  });

  const check = (target: string) =>
    checkPlatformsOnline(
      loadConfig(
        {
          DISCORD_TOKEN: fakeBotToken,
          DISCORD_APPLICATION_ID: fakeApplicationId,
          DISCORD_API_URL: discord.apiUrl,
          RAGENT_HANDOFF_DISCORD: target,
        },
        { envFile: false },
      ),
      2_000,
    );

  it('warns about a role no server of the bot has', async () => {
    const [result] = await check('role:123456789012345678');
    expect(result).toMatchObject({ title: 'Discord hand-off', status: 'warn' });
    expect(result?.detail).toContain('no server the bot is in has this role');
  });

  it('warns about a role the bot cannot mention, passes when the role or the bot allows it', async () => {
    const closed = discord.addRole(guildId, { name: 'support', mentionable: false });
    const [warned] = await check(`role:${closed}`);
    expect(warned?.status).toBe('warn');
    expect(warned?.detail).toContain('cannot be mentioned');

    const open = discord.addRole(guildId, { name: 'oncall', mentionable: true });
    expect((await check(`role:${open}`))[0]).toMatchObject({ status: 'pass' });

    discord.addRole(guildId, {
      name: 'bots',
      mentionable: false,
      permissions: String(1 << 17),
      botHasIt: true,
    });
    expect((await check(`role:${closed}`))[0]).toMatchObject({ status: 'pass' });
    // Only Discord's own API got the token.
    expect(discord.requests.every((request) => request.authorization === `Bot ${fakeBotToken}`)).toBe(true);
  });

  it('does not look up a person (anyone can be mentioned)', async () => {
    expect(await check('user:123456789012345678')).toEqual([]);
  });
});
