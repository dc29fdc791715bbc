/**
 * `ragent discord register [--guild ID]`: registers the `/ragent` slash command with Discord (for one
 * server, which is instant, or globally), and `ragent discord invite`: prints the bot's invite URL.
 */
import type { Command } from 'commander';
import { RagentError } from '../../errors.ts';
import type { PlatformCliContext } from '../platform-module.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import { inviteText, registeredCommandsText } from './discord-messages-en.ts';

export function registerDiscordCommands(program: Command, context: PlatformCliContext): void {
  const discord = program.command('discord').description('Set up the Discord bot');

  discord
    .command('register')
    .description('Register the /ragent slash command with Discord (DISCORD_TOKEN, DISCORD_APPLICATION_ID)')
    .option('--guild <id>', 'register for one server only (shows up at once; handy while trying it out)')
    .action(async (options: { guild?: string }) => {
      const config = context.config();
      // Loaded here: discord.js is heavy and other commands need none of it.
      const { registerCommands } = await import('./register-commands.ts');
      const { inviteUrl } = await import('./invite-url.ts');
      const registered = await registerCommands(config, options.guild ? { guildId: options.guild } : {});
      const invite = inviteUrl(config.discord.applicationId!);
      context.output.write(registeredCommandsText(registered.names, registered.where, invite));
    });

  discord
    .command('invite')
    .description('Print the URL that adds the bot to a server with the permissions it needs')
    .action(async () => {
      const applicationId = context.config().discord.applicationId;
      if (!applicationId) {
        throw new RagentError('CONFIG_INVALID', discordErrorMessages.CONFIG_INVALID.applicationIdMissing());
      }
      const { inviteUrl, requiredPermissions } = await import('./invite-url.ts');
      context.output.write(inviteText(inviteUrl(applicationId), Object.keys(requiredPermissions)));
    });
}
