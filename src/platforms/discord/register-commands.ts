/**
 * Registers the `/ragent` command with Discord over REST: for one server (shows up at once, good
 * for trying things) or globally (every server the bot is in).
 */
import { REST, Routes } from 'discord.js';
import type { Config } from '../../config.ts';
import { describeError, RagentError } from '../../errors.ts';
import { discordIdPattern } from '../../platform-settings/discord-settings.ts';
import { unsetNames } from '../setting-needs.ts';
import { applicationCommands } from './command-definitions.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';

export interface RegisteredCommands {
  names: string[];
  where: { guildId: string } | 'global';
}

export async function registerCommands(
  config: Config,
  options: { guildId?: string } = {},
): Promise<RegisteredCommands> {
  const { token, applicationId, apiUrl } = config.discord;
  const missing = unsetNames({ DISCORD_TOKEN: token, DISCORD_APPLICATION_ID: applicationId });
  if (!token || !applicationId) {
    const words = discordErrorMessages.CONFIG_INVALID.commandSettingsMissing({ missing });
    throw new RagentError('CONFIG_INVALID', words);
  }
  if (options.guildId !== undefined && !discordIdPattern.test(options.guildId)) {
    throw new RagentError(
      'INVALID_INPUT',
      discordErrorMessages.INVALID_INPUT.serverIdInvalid({ guildId: options.guildId }),
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
    throw new RagentError(
      'INTERNAL',
      discordErrorMessages.INTERNAL.commandsNotRegistered({ reason: describeError(error), status }),
      { cause: error },
    );
  }
}
