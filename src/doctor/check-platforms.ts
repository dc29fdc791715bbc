import type { Config } from '../config.ts';
import type { CheckResult } from './check-result.ts';

/**
 * Token shapes for each configured platform. Only shapes are checked: doctor never sends a token
 * anywhere, and never prints one.
 */
export function checkPlatforms(config: Config): CheckResult[] {
  const slack = checkSlack(config);
  const discord = checkDiscord(config);
  if (slack.length === 0 && discord.length === 0) {
    return [
      {
        title: 'Chat platforms',
        status: 'warn',
        detail: 'none configured: ragent start has nothing to connect to',
        fix: [
          'Slack: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (README, "Connecting Slack").',
          'Discord: set DISCORD_TOKEN and DISCORD_APPLICATION_ID (README, "Connecting Discord").',
          'Meanwhile, talk to your documents locally with: npx ragent chat',
        ],
      },
    ];
  }
  return [...slack, ...discord];
}

/** What `ragent start` needs to start Slack: a bot token and a way to receive events. */
export function slackIsConfigured(config: Config): boolean {
  return Boolean(config.slack.botToken && (config.slack.appToken || config.slack.signingSecret));
}

export function discordIsConfigured(config: Config): boolean {
  return Boolean(config.discord.token);
}

function checkSlack(config: Config): CheckResult[] {
  const { botToken, appToken, signingSecret, port } = config.slack;
  if (!botToken && !appToken && !signingSecret) return [];
  const title = 'Slack';
  if (!botToken) {
    return [
      {
        title,
        status: 'fail',
        detail: `${appToken ? 'SLACK_APP_TOKEN' : 'SLACK_SIGNING_SECRET'} is set but SLACK_BOT_TOKEN is not`,
        fix: ['Copy the "Bot User OAuth Token" (xoxb-…) from your Slack app\'s "OAuth & Permissions" page.'],
      },
    ];
  }
  if (!appToken && !signingSecret) {
    return [
      {
        title,
        status: 'fail',
        detail: 'SLACK_BOT_TOKEN is set, but there is no way to receive events',
        fix: [
          'Socket Mode (no public URL): set SLACK_APP_TOKEN, an app-level token (xapp-…) with connections:write.',
          'Or HTTP mode: set SLACK_SIGNING_SECRET ("Basic Information" → "App Credentials").',
        ],
      },
    ];
  }
  const results: CheckResult[] = [];
  const mode = appToken ? 'Socket Mode' : `HTTP mode on port ${port}`;
  const problems: string[] = [];
  if (!/^xoxb-\d+-\d+-[A-Za-z0-9]+$/.test(botToken)) {
    problems.push(
      'SLACK_BOT_TOKEN does not look complete (xoxb-<digits>-<digits>-<letters>): copy it again.',
    );
  }
  if (appToken && !/^xapp-\d+-[A-Z0-9]+-\d+-[a-f0-9]+$/.test(appToken)) {
    problems.push('SLACK_APP_TOKEN does not look complete (xapp-1-A…-…-…): copy it again.');
  }
  if (!appToken && signingSecret && !/^[a-f0-9]{32}$/.test(signingSecret)) {
    problems.push('SLACK_SIGNING_SECRET is usually 32 hex characters: copy it again from "App Credentials".');
  }
  results.push(
    problems.length === 0
      ? { title, status: 'pass', detail: `tokens look right (${mode})` }
      : { title, status: 'warn', detail: `configured for ${mode}, but a value looks odd`, fix: problems },
  );
  return results;
}

function checkDiscord(config: Config): CheckResult[] {
  const { token, applicationId } = config.discord;
  const title = 'Discord';
  if (!token) {
    if (!applicationId) return [];
    return [
      {
        title,
        status: 'fail',
        detail: 'DISCORD_APPLICATION_ID is set but DISCORD_TOKEN is not',
        fix: ['Copy the bot token from the developer portal: your application → "Bot" → "Reset Token".'],
      },
    ];
  }
  if (/^bot\s/i.test(token)) {
    return [
      {
        title,
        status: 'fail',
        detail: 'DISCORD_TOKEN starts with "Bot "',
        fix: ['Set DISCORD_TOKEN to the token alone, without the "Bot " prefix.'],
      },
    ];
  }
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part)) || token.length < 50) {
    return [
      {
        title,
        status: 'fail',
        detail: 'DISCORD_TOKEN does not have the shape of a bot token (three dot-separated parts)',
        fix: ['Copy the bot token again: developer portal → your application → "Bot" → "Reset Token".'],
      },
    ];
  }
  if (!applicationId) {
    return [
      {
        title,
        status: 'warn',
        detail: 'token looks right, but DISCORD_APPLICATION_ID is not set',
        fix: ['Copy the Application ID from the "General Information" page of your Discord application.'],
      },
    ];
  }
  const tokenUserId = decodeTokenUserId(parts[0] ?? '');
  if (tokenUserId && /^\d+$/.test(tokenUserId) && tokenUserId !== applicationId) {
    return [
      {
        title,
        status: 'warn',
        detail: 'the token belongs to a different application than DISCORD_APPLICATION_ID',
        fix: ['Check that DISCORD_TOKEN and DISCORD_APPLICATION_ID come from the same Discord application.'],
      },
    ];
  }
  return [{ title, status: 'pass', detail: `token looks right (application ${applicationId})` }];
}

/** The first part of a Discord bot token is the bot's user id in base64 (equal to the application id). */
function decodeTokenUserId(firstPart: string): string | undefined {
  try {
    return Buffer.from(firstPart, 'base64url').toString('utf8');
  } catch {
    return undefined;
  }
}
