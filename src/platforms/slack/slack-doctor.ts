/**
 * Doctor's check of the Slack settings. Only shapes are checked here (the granted scopes are asked
 * of Slack itself in slack-scope-check.ts, through slackApi); doctor never prints a token.
 */
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import type { PlatformApi } from '../../doctor/platform-api.ts';
import { shapeCheck } from '../../doctor/value-shapes.ts';
import { checkSettings, type SettingNeeds } from '../setting-needs.ts';

/** A bot token, and a way to receive events: Socket Mode's app token or HTTP mode's signing secret. */
export function slackSettingNeeds(config: Config): SettingNeeds {
  const { botToken, appToken, signingSecret } = config.slack;
  return {
    label: 'Slack',
    needs: [
      {
        variables: { SLACK_BOT_TOKEN: botToken },
        fix: ['Copy the "Bot User OAuth Token" (xoxb-…) from your Slack app\'s "OAuth & Permissions" page.'],
      },
      {
        variables: { SLACK_APP_TOKEN: appToken, SLACK_SIGNING_SECRET: signingSecret },
        fix: [
          'Socket Mode (no public URL): set SLACK_APP_TOKEN, an app-level token (xapp-…) with connections:write.',
          'Or HTTP mode: set SLACK_SIGNING_SECRET ("Basic Information" → "App Credentials").',
        ],
      },
    ],
  };
}

export function checkSlack(config: Config): CheckResult[] {
  return checkSettings(slackSettingNeeds(config), () => {
    const { botToken = '', appToken, signingSecret, port } = config.slack;
    const mode = appToken ? 'Socket Mode' : `HTTP mode on port ${port}`;
    const detail = `configured for ${mode}, but a value looks odd`;
    const odd = (wrong: boolean, fix: string) => ({ wrong, status: 'warn' as const, detail, fix: [fix] });
    return [
      shapeCheck(
        'Slack',
        [
          odd(
            !/^xoxb-\d+-\d+-[A-Za-z0-9]+$/.test(botToken),
            'SLACK_BOT_TOKEN does not look complete (xoxb-<digits>-<digits>-<letters>): copy it again.',
          ),
          odd(
            !!appToken && !/^xapp-\d+-[A-Z0-9]+-\d+-[a-f0-9]+$/.test(appToken),
            'SLACK_APP_TOKEN does not look complete (xapp-1-A…-…-…): copy it again.',
          ),
          odd(
            !appToken && !!signingSecret && !/^[a-f0-9]{32}$/.test(signingSecret),
            'SLACK_SIGNING_SECRET is usually 32 hex characters: copy it again from "App Credentials".',
          ),
        ],
        `tokens look right (${mode})`,
      ),
    ];
  });
}

/** Slack's Web API for the doctor's online checks: Slack's own address, or SLACK_API_URL. */
export function slackApi(config: Config, timeoutMs: number): PlatformApi {
  return {
    label: 'Slack',
    base: config.slack.apiUrl ?? 'https://slack.com/api/',
    baseVariable: 'SLACK_API_URL',
    tokenVariable: 'SLACK_BOT_TOKEN',
    authorization: `Bearer ${config.slack.botToken}`,
    timeoutMs,
  };
}
