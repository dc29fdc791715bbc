/**
 * Registers the `/ragent` command with Discord over REST: for one server (shows up at once, good
 * for trying things) or globally (every server the bot is in).
 */
import { REST, Routes } from 'discord.js';
import type { Config } from '../../config.ts';
import { RagentError } from '../../errors.ts';
import { applicationCommands } from './command-definitions.ts';

export interface RegisteredCommands {
  names: string[];
  where: { guildId: string } | 'global';
}

export async function registerCommands(
  config: Config,
  options: { guildId?: string } = {},
): Promise<RegisteredCommands> {
  const { token, applicationId, apiUrl } = config.discord;
  if (!token || !applicationId) {
    const missing = [!token && 'DISCORD_TOKEN', !applicationId && 'DISCORD_APPLICATION_ID'].filter(Boolean);
    throw new RagentError(
      'CONFIG_INVALID',
      `${missing.join(' and ')} must be set to register the commands. Copy them from your application in the Discord developer portal (Bot → Token, General Information → Application ID).`,
    );
  }
  if (options.guildId !== undefined && !/^\d{15,22}$/.test(options.guildId)) {
    throw new RagentError(
      'INVALID_INPUT',
      `"${options.guildId}" is not a server id. In Discord, enable Developer Mode, right-click the server and choose "Copy Server ID".`,
    );
  }
  const rest = new REST(apiUrl ? { api: apiUrl } : {}).setToken(token);
  const route = options.guildId
    ? Routes.applicationGuildCommands(applicationId, options.guildId)
    : Routes.applicationCommands(applicationId);
  try {
    const registered = (await rest.put(route, { body: applicationCommands })) as Array<{ name: string }>;
    return {
      names: registered.map((command) => command.name),
      where: options.guildId ? { guildId: options.guildId } : 'global',
    };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const hint =
      status === 401
        ? 'Discord rejected the token: reset it under Bot → Token and update DISCORD_TOKEN.'
        : status === 403 || status === 404
          ? 'Check DISCORD_APPLICATION_ID, and that the bot was invited to that server with the applications.commands scope.'
          : 'Check your network connection and try again.';
    throw new RagentError(
      'INTERNAL',
      `Could not register the Discord commands (${describe(error)}). ${hint}`,
      {
        cause: error,
      },
    );
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
