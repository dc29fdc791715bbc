/**
 * Doctor's check of the Discord settings. Only shapes are checked here: doctor sends the token to
 * Discord's own API only (discordApi, for the hand-off check), and never prints one.
 */
import type { Config } from '../../config.ts';
import { checkFollowUps } from '../../doctor/check-follow-ups.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import type { PlatformApi } from '../../doctor/platform-api.ts';
import { shapeCheck } from '../../doctor/value-shapes.ts';
import { checkSettings, type SettingNeeds } from '../setting-needs.ts';

/** The bot token; the application id is not needed to start (only to register commands). */
export function discordSettingNeeds(config: Config): SettingNeeds {
  const { token, applicationId } = config.discord;
  return {
    label: 'Discord',
    needs: [
      {
        variables: { DISCORD_TOKEN: token },
        fix: ['Copy the bot token from the developer portal: your application → "Bot" → "Reset Token".'],
      },
    ],
    optional: { DISCORD_APPLICATION_ID: applicationId },
  };
}

export function checkDiscord(config: Config): CheckResult[] {
  return checkSettings(discordSettingNeeds(config), () => {
    const result = checkDiscordToken(config);
    return result.status === 'fail' ? [result] : [result, ...checkDiscordFollowUps(config)];
  });
}

/** Follow-ups without a mention need the message text, which Discord gives only with the intent. */
export function checkDiscordFollowUps(config: Config): CheckResult[] {
  return checkFollowUps(config, 'Discord', {
    setting: 'DISCORD_MESSAGE_CONTENT',
    on: config.discord.messageContentIntent,
    fix: [
      'To answer replies in its threads without a mention: developer portal → your application → "Bot" → tick "Message Content Intent", then set DISCORD_MESSAGE_CONTENT=true.',
      'Auto-answer channels and forums (/ragent autoanswer) need the intent too: without it their questions cannot be read.',
    ],
  });
}

/** Discord's REST API for the doctor's online checks: Discord's own address, or DISCORD_API_URL. */
export function discordApi(config: Config, timeoutMs: number): PlatformApi {
  return {
    label: 'Discord',
    base: `${config.discord.apiUrl ?? 'https://discord.com/api'}/v10/`,
    baseVariable: 'DISCORD_API_URL',
    tokenVariable: 'DISCORD_TOKEN',
    authorization: `Bot ${config.discord.token}`,
    timeoutMs,
  };
}

function checkDiscordToken(config: Config): CheckResult {
  const { token = '', applicationId } = config.discord;
  const parts = token.split('.');
  // The first part of a bot token is the bot's user id (equal to the application id) in base64;
  // decoding is lenient and never throws.
  const tokenUserId = Buffer.from(parts[0] ?? '', 'base64url').toString('utf8');
  return shapeCheck(
    'Discord',
    [
      {
        wrong: /^bot\s/i.test(token),
        status: 'fail',
        detail: 'DISCORD_TOKEN starts with "Bot "',
        fix: ['Set DISCORD_TOKEN to the token alone, without the "Bot " prefix.'],
      },
      {
        wrong:
          parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part)) || token.length < 50,
        status: 'fail',
        detail: 'DISCORD_TOKEN does not have the shape of a bot token (three dot-separated parts)',
        fix: ['Copy the bot token again: developer portal → your application → "Bot" → "Reset Token".'],
      },
      {
        wrong: !applicationId,
        status: 'warn',
        detail: 'token looks right, but DISCORD_APPLICATION_ID is not set',
        fix: ['Copy the Application ID from the "General Information" page of your Discord application.'],
      },
      {
        wrong: /^\d+$/.test(tokenUserId) && tokenUserId !== applicationId,
        status: 'warn',
        detail: 'the token belongs to a different application than DISCORD_APPLICATION_ID',
        fix: ['Check that DISCORD_TOKEN and DISCORD_APPLICATION_ID come from the same Discord application.'],
      },
    ],
    `token looks right (application ${applicationId})`,
  );
}
