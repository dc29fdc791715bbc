/**
 * Slack's part of the error catalogue (src/error-messages-en.ts): the sentences only Slack says — its
 * tokens and settings, its file hosts, its scopes — in the same shape, one entry per error code. The
 * catalogue itself names no platform; each sentence here is the one a throw site under
 * src/platforms/slack/ passes, with the facts filled in.
 */
import { type ErrorCatalogue, platformUnreachable } from '../../error-messages-en.ts';

/** Slack's Web API could not be reached at start: a network failure, or an answer that is not Slack's. */
const slackUnreachable = platformUnreachable('Slack', 'SLACK_API_URL');

/** How to get a bot token Slack accepts: said at start and by the doctor when Slack refuses one. */
export const copyBotTokenAgain =
  'Copy the "Bot User OAuth Token" again from the app\'s "OAuth & Permissions" page (reinstall the app if it was revoked).';

export const slackErrorMessages = {
  CONFIG_INVALID: {
    socketModeFailed: ({ reason }: { reason: string }) =>
      `Could not open the Slack Socket Mode connection (${reason}). Check SLACK_APP_TOKEN (an app-level token with connections:write) and that Socket Mode is enabled for the app.`,
    portUnavailable: ({ port, reason }: { port: number | undefined; reason: string }) =>
      `Could not listen for Slack events on port ${port} (${reason}). Choose a free SLACK_PORT.`,
    botTokenRejected: ({ code }: { code: string }) =>
      `Slack rejected SLACK_BOT_TOKEN (${code}). ${copyBotTokenAgain}`,
    /** The Web API failed other than over the network: something answered, but not as Slack does. */
    webApiFailed: slackUnreachable,
  },
  NETWORK_UNREACHABLE: {
    webApi: slackUnreachable,
    socketMode: ({ reason }: { reason: string }) =>
      `Could not reach Slack to open the Socket Mode connection (${reason}). Check the network and try again.`,
  },
  PERMISSION_DENIED: ({ code }: { code: string }) =>
    `Slack refused to read the thread (${code}): give the app the channels:history and groups:history scopes (slack-app-manifest.yml), reinstall it, and invite it to the channel.`,
} as const satisfies ErrorCatalogue;
