/** Discord as a platform module: its settings, plan, doctor check, set-up help, CLI, start and thread ids. */
import { decodeId } from '../../core/ids.ts';
import type { PlatformModule } from '../platform-module.ts';
import { settingsPlan } from '../setting-needs.ts';
import { registerDiscordCommands } from './cli-commands.ts';
import { checkDiscord, discordSettingNeeds } from './discord-doctor.ts';
import { discordThreadLink } from './discord-ids.ts';
import { checkDiscordHandOff } from './hand-off-doctor.ts';

export const discordModule: PlatformModule = {
  name: 'discord',
  label: 'Discord',
  plan: (config) => settingsPlan(discordSettingNeeds(config)),
  doctorChecks: checkDiscord,
  onlineDoctorChecks: checkDiscordHandOff,
  setupHelp: [
    '  Discord',
    '    DISCORD_TOKEN=…          https://discord.com/developers/applications → your app → "Bot" → Reset Token',
    '    DISCORD_APPLICATION_ID=… the same app → "General Information" → Application ID',
    '    Step by step: README.md, section "Connecting Discord".',
  ],
  doctorHint: 'Discord: set DISCORD_TOKEN and DISCORD_APPLICATION_ID (README, "Connecting Discord").',
  registerCommands: registerDiscordCommands,
  // Loaded when started: discord.js is heavy and other commands need none of it.
  start: async (services) => (await import('./start-discord.ts')).startDiscord(services),
  ids: {
    owns: (threadId) => decodeId(threadId).platform === 'discord',
    threadLink: discordThreadLink,
  },
};
