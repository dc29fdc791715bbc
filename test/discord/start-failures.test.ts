/** Starting Discord: a network failure is told apart from a wrong token. */
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscord } from '../../src/platforms/discord/start-discord.ts';
import { type FakeDiscord, fakeApplicationId, startFakeDiscord } from '../fakes/fake-discord.ts';
import { closedPort } from '../support/free-port.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

describe('Discord: starting', () => {
  let services: TestServices | undefined;
  let discord: FakeDiscord | undefined;
  afterEach(async () => {
    await services?.dispose();
    await discord?.close();
    services = undefined;
    discord = undefined;
  });

  it('says NETWORK_UNREACHABLE, with the cause, when nothing answers at the Discord API', async () => {
    const port = await closedPort();
    services = await createTestServices({
      ollamaUrl: 'http://127.0.0.1:9',
      environment: {
        DISCORD_TOKEN: 'fake-discord-bot-token.abcdef',
        DISCORD_APPLICATION_ID: fakeApplicationId,
        DISCORD_API_URL: `http://127.0.0.1:${port}/api`,
      },
    });
    await expect(startDiscord(services)).rejects.toMatchObject({
      code: 'NETWORK_UNREACHABLE',
      message: expect.stringContaining('connection refused'),
      details: { networkCode: 'ECONNREFUSED' },
    });
  });

  it('keeps CONFIG_INVALID for a token Discord refuses', async () => {
    discord = await startFakeDiscord();
    services = await createTestServices({
      ollamaUrl: 'http://127.0.0.1:9',
      environment: {
        DISCORD_TOKEN: 'wrong-discord-bot-token.abcdef',
        DISCORD_APPLICATION_ID: fakeApplicationId,
        DISCORD_API_URL: discord.apiUrl,
      },
    });
    await expect(startDiscord(services)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
