/**
 * Discord's part of the error catalogue (src/error-messages-en.ts): the sentences only Discord says —
 * its settings, its CDN, its permissions — in the same shape, one entry per error code. The catalogue
 * itself names no platform; each sentence here is the one a throw site under src/platforms/discord/
 * passes, with the facts filled in.
 */
import { type ErrorCatalogue, platformUnreachable } from '../../error-messages-en.ts';

/** What to do when registering the commands failed with this HTTP status. */
const registerHint = (status: number | undefined) =>
  status === 401
    ? 'Discord rejected the token: reset it under Bot → Token and update DISCORD_TOKEN.'
    : status === 403 || status === 404
      ? 'Check DISCORD_APPLICATION_ID, and that the bot was invited to that server with the applications.commands scope.'
      : 'Check your network connection and try again.';

export const discordErrorMessages = {
  CONFIG_INVALID: {
    applicationIdMissing: () =>
      'DISCORD_APPLICATION_ID is not set. Copy the Application ID from the "General Information" page of your Discord application.',
    /** `missing`: the settings not set, of DISCORD_TOKEN and DISCORD_APPLICATION_ID. */
    commandSettingsMissing: ({ missing }: { missing: readonly string[] }) =>
      `${missing.join(' and ')} must be set to register the commands. Copy them from your application in the Discord developer portal (Bot → Token, General Information → Application ID).`,
    connectFailed: ({ reason }: { reason: string }) =>
      `Could not connect to Discord (${reason}). Check DISCORD_TOKEN, and that the Message Content intent is enabled in the developer portal if DISCORD_MESSAGE_CONTENT is on.`,
  },
  NETWORK_UNREACHABLE: platformUnreachable('Discord', 'DISCORD_API_URL'),
  PERMISSION_DENIED: {
    channelUnwritable: ({ channelId }: { channelId: string | undefined }) =>
      `Discord channel ${channelId} is gone, or ragent cannot post there: give it the View Channel and Send Messages permissions in that channel.`,
    threadNotStarted: () =>
      "I couldn't start a thread here. Give me the Create Public Threads and Send Messages in Threads permissions in this channel, or mention me inside a thread.",
    threadUnreadable: () =>
      'Discord refused to read the thread (403): give ragent the View Channel and Read Message History permissions in this channel.',
  },
  INVALID_INPUT: {
    serverIdInvalid: ({ guildId }: { guildId: string }) =>
      `"${guildId}" is not a server id. In Discord, enable Developer Mode, right-click the server and choose "Copy Server ID".`,
  },
  INTERNAL: {
    commandsNotRegistered: ({ reason, status }: { reason: string; status: number | undefined }) =>
      `Could not register the Discord commands (${reason}). ${registerHint(status)}`,
  },
} as const satisfies ErrorCatalogue;
