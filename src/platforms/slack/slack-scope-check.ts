/**
 * Doctor's online check of the Slack app: asks Slack (`auth.test`, with the bot token, to Slack's own
 * API or SLACK_API_URL — nowhere else) which scopes the token was granted, and lists those of
 * slack-app-manifest.yml it lacks and what each enables. An app made from an older manifest keeps
 * working for what its scopes allow, so a missing scope is a warning, never a failure.
 */
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { probe } from '../../doctor/http-probe.ts';
import { grantsCheck } from '../../doctor/missing-grants.ts';
import { parseScopesHeader, slackScopeKind } from './slack-scopes.ts';

const { title } = slackScopeKind;

export async function checkSlackScopes(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { botToken, appToken, signingSecret, apiUrl } = config.slack;
  if (!botToken || (!appToken && !signingSecret)) return [];
  const base = apiUrl ?? 'https://slack.com/api/';
  const outcome = await probe(new URL('auth.test', base.endsWith('/') ? base : `${base}/`).toString(), {
    timeoutMs,
    headers: { authorization: `Bearer ${botToken}` },
    body: {},
  });
  if (outcome.kind === 'unreachable') {
    return [
      {
        title,
        status: 'warn',
        detail: `could not ask Slack which scopes the app has (${outcome.reason})`,
        fix: ['Check the network (and SLACK_API_URL if set), then run ragent doctor again.'],
      },
    ];
  }
  const body = (outcome.body ?? {}) as { ok?: boolean; error?: string };
  if (body.ok !== true) {
    return [
      {
        title,
        status: 'fail',
        detail: `Slack refused SLACK_BOT_TOKEN (${body.error ?? `HTTP ${outcome.status}`})`,
        fix: [
          'Copy the "Bot User OAuth Token" again from the app\'s "OAuth & Permissions" page (reinstall the app if it was revoked).',
        ],
      },
    ];
  }
  return [grantsCheck(slackScopeKind, parseScopesHeader(outcome.headers?.get('x-oauth-scopes')))];
}
