/**
 * Doctor's online check of the Slack app: asks Slack (`auth.test`) which scopes the bot token was
 * granted, and lists those of slack-app-manifest.yml it lacks and what each enables
 * (`doctor/missing-grants.ts`: a missing scope is a warning, never a failure).
 */
import type { Config } from '../../config.ts';
import type { CheckResult } from '../../doctor/check-result.ts';
import { checkGrantsOnline } from '../../doctor/missing-grants.ts';
import { slackApi } from './slack-doctor.ts';
import { copyBotTokenAgain } from './slack-error-messages-en.ts';
import { slackScopeKind } from './slack-scopes.ts';

export async function checkSlackScopes(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const { botToken, appToken, signingSecret } = config.slack;
  if (!botToken || (!appToken && !signingSecret)) return [];
  const check = checkGrantsOnline(slackApi(config, timeoutMs), slackScopeKind, async (ask) => {
    const answer = await ask('auth.test', {});
    const body = (answer.body ?? {}) as { ok?: boolean; error?: string };
    // Comma-separated, maybe with spaces (the comparison trims the names).
    if (body.ok === true) return { granted: answer.headers?.get('x-oauth-scopes')?.split(',') };
    return { refused: body.error ?? `HTTP ${answer.status}`, fix: copyBotTokenAgain };
  });
  return [await check];
}
