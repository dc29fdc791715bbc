/**
 * What a platform app was granted against what ragent asks for, once for every platform (OAuth
 * scopes, permissions, intents): an app made from an older manifest keeps working for what its grants
 * allow, so a missing grant is a warning, never a failure — logged once at start and listed by the
 * doctor, each with what it enables. The platform gives its required list and reads the granted one.
 */
import type { Logger } from '../logger.ts';
import type { CheckResult } from './check-result.ts';
import { type AskApi, checkWithPlatformApi, type PlatformApi } from './platform-api.ts';

export interface Grant {
  name: string;
  /** What works only with it (and what comes with it, to set up as well). */
  enables: string;
}

export interface GrantKind {
  /** The doctor check's title (e.g. `<platform> app scopes`). */
  title: string;
  /** Whose grants (e.g. `the <platform> app`). */
  subject: string;
  /** What one grant is called (`scope`); its plural adds an `s`. */
  noun: string;
  /** Where the required list is written (the platform's app manifest). */
  source: string;
  required: readonly Grant[];
  /** How to get them; said after the list of what each enables. */
  fix: string;
}

/** The required grants missing from `granted` (names compared without surrounding spaces). */
export function missingGrants(required: readonly Grant[], granted: readonly string[]): Grant[] {
  const have = new Set(granted.map((name) => name.trim()));
  return required.filter((grant) => !have.has(grant.name));
}

/** The doctor's line: skipped when the platform did not say, passed when nothing is missing. */
export function grantsCheck(kind: GrantKind, granted: readonly string[] | undefined): CheckResult {
  const { title, noun, source } = kind;
  if (!granted) return { title, status: 'skip', detail: `${kind.subject} did not say which ${noun}s it has` };
  const missing = missingGrants(kind.required, granted);
  if (missing.length === 0) {
    return { title, status: 'pass', detail: `all ${kind.required.length} ${noun}s of ${source} granted` };
  }
  const count = `${missing.length} ${noun}${missing.length === 1 ? '' : 's'}`;
  return {
    title,
    status: 'warn',
    detail: `${kind.subject} lacks ${count} of ${source}: ${missing.map((grant) => grant.name).join(', ')}`,
    fix: [...missing.map((grant) => `${grant.name}: ${grant.enables}`), kind.fix],
  };
}

/** What the platform said when asked which grants the app has: them (if it said), or that it refused the token. */
export type GrantsAnswer = { granted: readonly string[] | undefined } | { refused: string; fix: string };

/**
 * The doctor's line when the platform is asked which grants the app has (`read` asks its API): a
 * refused bot token fails, an API that cannot be asked warns (it may be the network), else as above.
 */
export function checkGrantsOnline(
  api: PlatformApi,
  kind: GrantKind,
  read: (ask: AskApi) => Promise<GrantsAnswer>,
): Promise<CheckResult> {
  const { label, baseVariable, tokenVariable } = api;
  const cannotAsk = (reason: string) => ({
    status: 'warn' as const,
    detail: `could not ask ${label} which ${kind.noun}s the app has (${reason})`,
    fix: [`Check the network (and ${baseVariable} if set), then run ragent doctor again.`],
  });
  return checkWithPlatformApi(api, kind.title, cannotAsk, async (ask) => {
    const answer = await read(ask);
    if ('refused' in answer)
      return {
        status: 'fail',
        detail: `${label} refused ${tokenVariable} (${answer.refused})`,
        fix: [answer.fix],
      };
    const { title: _title, ...line } = grantsCheck(kind, answer.granted);
    return line;
  });
}

/** At start, once: what the app cannot do. It still starts: everything its grants allow works. */
export function logMissingGrants(
  logger: Logger,
  kind: GrantKind,
  granted: readonly string[] | undefined,
): void {
  if (!granted) return;
  const missing = missingGrants(kind.required, granted);
  if (missing.length === 0) return;
  const { noun } = kind;
  logger.warn(
    {
      [`missing${noun[0]?.toUpperCase()}${noun.slice(1)}s`]: missing.map((grant) => grant.name),
      disabled: missing.map((grant) => `${grant.name}: ${grant.enables}`),
    },
    `${kind.subject} lacks ${noun}s of ${kind.source}: ${kind.fix} (ragent doctor lists them)`,
  );
}
