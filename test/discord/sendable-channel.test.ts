/**
 * The channel a reply, a Share or an "Ask ragent" posts to, read through REST from the fake Discord: one
 * that is gone is the catalogue's "cannot post there" (PERMISSION_DENIED, naming the channel), not
 * Discord's bare error; a channel that exists is returned.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { RagentError } from '../../src/errors.ts';
import { createDiscordClient, createReplicaRest } from '../../src/platforms/discord/discord-client.ts';
import { sendableChannel } from '../../src/platforms/discord/discord-surfaces.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';

describe('Discord: the channel a reply goes to', () => {
  let discord: FakeDiscord | undefined;
  let close = async () => {};
  afterEach(async () => {
    await close();
    await discord?.close();
  });

  async function restClient() {
    discord = await startFakeDiscord();
    const environment = {
      DISCORD_TOKEN: fakeBotToken,
      DISCORD_APPLICATION_ID: fakeApplicationId,
      DISCORD_API_URL: discord.apiUrl,
    };
    const config = loadConfig(environment, { envFile: false });
    const rest = createReplicaRest(config, 50);
    const client = createDiscordClient(config, rest);
    close = async () => {
      await client.destroy();
      rest.close();
    };
    return client;
  }

  it('says a channel that is gone cannot be posted to, naming it', async () => {
    const client = await restClient();
    const gone = '100000000000009999';
    const refused = await sendableChannel(client, gone).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RagentError);
    expect((refused as RagentError).code).toBe('PERMISSION_DENIED');
    expect((refused as RagentError).message).toContain(gone);
  });

  it('returns a channel that exists', async () => {
    const client = await restClient();
    const { channelId } = discord!.addGuild('Server');
    const channel = await sendableChannel(client, channelId);
    expect(channel.id).toBe(channelId);
  });
});
