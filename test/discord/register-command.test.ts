import { Writable } from 'node:stream';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/adapters/cli/cli-context.ts';
import { buildProgram } from '../../src/cli.ts';
import { loadConfig } from '../../src/config.ts';
import {
  askMessageCommand,
  ragentCommand,
  reportCommand,
} from '../../src/platforms/discord/command-definitions.ts';
import { inviteUrl, requiredPermissionBits } from '../../src/platforms/discord/invite-url.ts';
import { registerCommands } from '../../src/platforms/discord/register-commands.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';

const permissionNames =
  'View Channels, Send Messages, Create Public Threads, Send Messages in Threads, Embed Links, Read Message History';

function cliWith(environment: Record<string, string>) {
  let printed = '';
  const context = createCliContext({ RAGENT_DATA_DIR: '/nonexistent-ragent-data', ...environment });
  context.output = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk);
      done();
    },
  });
  return { program: buildProgram(context), printed: () => printed };
}

describe('ragent discord register', () => {
  let fake: FakeDiscord;
  afterEach(async () => {
    await fake?.close();
  });

  it('registers /ragent for one server over REST, with the bot token, and prints the invite URL', async () => {
    fake = await startFakeDiscord();
    const cli = cliWith({
      DISCORD_TOKEN: fakeBotToken,
      DISCORD_APPLICATION_ID: fakeApplicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    await cli.program.parseAsync(['node', 'ragent', 'discord', 'register', '--guild', '123456789012345678']);
    const [put] = fake.requests.filter((request) => request.method === 'PUT');
    expect(put?.path).toBe(`/api/v10/applications/${fakeApplicationId}/guilds/123456789012345678/commands`);
    expect(put?.authorization).toBe(`Bot ${fakeBotToken}`);
    expect(put?.body).toEqual([ragentCommand, reportCommand, askMessageCommand]);
    // The report is for Manage Server by default: Discord sets that per top-level command.
    expect(
      (put?.body as Array<{ default_member_permissions?: string }> | undefined)?.[1]
        ?.default_member_permissions,
    ).toBe(String(PermissionFlagsBits.ManageGuild));
    expect(cli.printed()).toBe(
      'Registered /ragent, /ragent-report, "Ask ragent" for server 123456789012345678 (available now).\n' +
        `Invite the bot with: ${inviteUrl(fakeApplicationId)}\n`,
    );
  });

  it('prints the invite URL and the permissions it asks for', async () => {
    const cli = cliWith({ DISCORD_APPLICATION_ID: fakeApplicationId });
    await cli.program.parseAsync(['node', 'ragent', 'discord', 'invite']);
    expect(cli.printed()).toBe(`${inviteUrl(fakeApplicationId)}\nPermissions: ${permissionNames}.\n`);
  });

  it('registers globally without --guild', async () => {
    fake = await startFakeDiscord();
    const config = loadConfig(
      {
        DISCORD_TOKEN: fakeBotToken,
        DISCORD_APPLICATION_ID: fakeApplicationId,
        DISCORD_API_URL: fake.apiUrl,
      },
      { envFile: false },
    );
    const registered = await registerCommands(config);
    expect(registered).toEqual({ names: ['ragent', 'ragent-report', 'Ask ragent'], where: 'global' });
    expect(fake.requests.at(-1)?.path).toBe(`/api/v10/applications/${fakeApplicationId}/commands`);
  });

  it('says what to set when the token or application id is missing, and explains a rejected token', async () => {
    await expect(registerCommands(loadConfig({}, { envFile: false }))).rejects.toThrow(
      /DISCORD_TOKEN and DISCORD_APPLICATION_ID must be set/,
    );
    fake = await startFakeDiscord();
    const config = loadConfig(
      {
        DISCORD_TOKEN: 'wrong-token',
        DISCORD_APPLICATION_ID: fakeApplicationId,
        DISCORD_API_URL: fake.apiUrl,
      },
      { envFile: false },
    );
    await expect(registerCommands(config)).rejects.toThrow(/Discord rejected the token/);
    await expect(registerCommands(config, { guildId: 'my-server' })).rejects.toThrow(/not a server id/);
  });

  it('defines the command: ingest takes an attachment or a web address, servers only', () => {
    const ingest = ragentCommand.options?.find((option) => option.name === 'ingest') as {
      options?: Array<{ name: string; type: number; required?: boolean }>;
    };
    expect(ingest.options).toEqual([
      expect.objectContaining({ name: 'file', type: 11, required: false }),
      expect.objectContaining({ name: 'url', type: 3, required: false }),
      expect.objectContaining({
        name: 'for',
        type: 3,
        required: false,
        choices: [
          { name: 'this channel', value: 'channel' },
          { name: 'the whole server', value: 'server' },
        ],
      }),
    ]);
    expect(ragentCommand.contexts).toEqual([0]);
    expect(ragentCommand.options?.map((option) => option.name)).toEqual([
      'ingest',
      'docs',
      'forget',
      'move',
      'use',
      'unuse',
      'help',
      'autoanswer',
      'ask',
      'handoff',
    ]);
    const ask = ragentCommand.options?.find((option) => option.name === 'ask') as {
      options?: Array<{ name: string; type: number; required?: boolean }>;
    };
    expect(ask.options).toEqual([expect.objectContaining({ name: 'question', type: 3, required: true })]);
  });

  it('invites the bot with the bot and applications.commands scopes and exactly the permissions it needs', () => {
    // View Channels, Send Messages, Embed Links, Read Message History, Create Public Threads, Send Messages in Threads.
    expect(requiredPermissionBits).toBe(309237730304n);
    const url = new URL(inviteUrl('123456789012345678'));
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe('309237730304');
    expect(url.searchParams.get('client_id')).toBe('123456789012345678');
  });
});
