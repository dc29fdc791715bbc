/**
 * The doctor asking a chat platform's own API, once for every platform: with the bot token, at the
 * platform's own address or the test URL its settings name and nowhere else (a token must never
 * travel to another host), within the doctor's timeout. The platform reads what answered (its HTTP
 * status, its own error field) and words what it found; when it could not ask at all, the caller
 * words the line from the reason.
 */
import type { CheckResult } from './check-result.ts';
import { probe } from './http-probe.ts';

export interface PlatformApi {
  /** How the doctor names the platform (its label). */
  label: string;
  /** The API's address, which routes are relative to: the platform's own, or the test URL set. */
  base: string;
  /** The setting that names a test URL instead (said when the API cannot be reached). */
  baseVariable: string;
  /** The setting holding the bot token (said when the platform refuses it). */
  tokenVariable: string;
  /** The Authorization header's value, with the bot token (`Bearer …`, `Bot …`). */
  authorization: string;
  timeoutMs: number;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers?: Headers;
}

/** Asks one route of the API (a body makes it a POST of JSON). */
export type AskApi = (route: string, body?: unknown) => Promise<ApiAnswer>;

/** A doctor line without its title: the check's frame gives the title. */
export type CheckLine = Omit<CheckResult, 'title'>;

/** Nothing answered, or the answer was not one the check can read: the doctor could not ask. */
export class CannotAsk extends Error {
  override readonly name = 'CannotAsk';
}

/** Runs `read` against the API; when it cannot ask (or reading fails), `cannotAsk` words the line from the reason. */
export async function checkWithPlatformApi(
  api: PlatformApi,
  title: string,
  cannotAsk: (reason: string) => CheckLine,
  read: (ask: AskApi) => Promise<CheckLine>,
): Promise<CheckResult> {
  const base = api.base.endsWith('/') ? api.base : `${api.base}/`;
  const headers = { authorization: api.authorization };
  const ask: AskApi = async (route, body) => {
    const outcome = await probe(new URL(route, base).href, { timeoutMs: api.timeoutMs, headers, body });
    if (outcome.kind === 'unreachable') throw new CannotAsk(outcome.reason);
    return outcome;
  };
  try {
    return { title, ...(await read(ask)) };
  } catch (error) {
    return { title, ...cannotAsk((error as Error).message) };
  }
}
