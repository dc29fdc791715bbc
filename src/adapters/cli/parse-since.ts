/**
 * `--since` of `ragent feedback export` and `ragent report`: a duration back from now (`7d`, `24h`) or an
 * ISO 8601 date or time (`2026-11-01`, `2026-11-01T09:00:00Z`), as an ISO 8601 UTC time.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';

const hourMs = 60 * 60 * 1000;
const units: Record<string, number> = { h: hourMs, d: 24 * hourMs };

export function parseSince(text: string, now = Date.now()): string {
  const trimmed = text.trim();
  const duration = /^(\d{1,5})([dh])$/i.exec(trimmed);
  if (duration) {
    const [, amount, unit] = duration;
    return new Date(now - Number(amount) * (units[unit?.toLowerCase() ?? 'd'] ?? 0)).toISOString();
  }
  const time = new Date(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed) || Number.isNaN(time.getTime())) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.sinceInvalid({ text }));
  }
  return time.toISOString();
}
