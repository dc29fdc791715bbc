/**
 * At start, what an app made from an older manifest cannot do: the scopes of slack-app-manifest.yml
 * its token lacks (Slack said which it has in auth.test's answer) and what each enables. It still
 * starts: everything its scopes allow works.
 */
import type { Logger } from '../../logger.ts';
import { missingScopes } from './slack-scopes.ts';

export function logMissingScopes(logger: Logger, granted: readonly string[] | undefined): void {
  if (!granted) return;
  const missing = missingScopes(granted);
  if (missing.length === 0) return;
  logger.warn(
    {
      missingScopes: missing.map((entry) => entry.scope),
      disabled: missing.map((entry) => `${entry.scope}: ${entry.enables}`),
    },
    'the Slack app lacks scopes of slack-app-manifest.yml: update the app from it and reinstall (ragent doctor lists them)',
  );
}
