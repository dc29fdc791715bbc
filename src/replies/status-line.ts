/**
 * What a platform's status line (a status shown apart from messages, such as an assistant thread's
 * status) shows, decided once: the line cut to the length the platform shows, and under it the lines
 * that rotate until the next status — the catalogue's loading lines at first, then the latest
 * progress line alone, so what shows is what happens. An empty line with nothing rotating clears it.
 */
import type { StatusLinePrimitive } from './reply-port.ts';

export function setStatusLine(
  statusLine: StatusLinePrimitive,
  line: string,
  rotating?: readonly string[],
): Promise<void> {
  const shown = line.slice(0, statusLine.maxLength);
  return statusLine.show(shown, rotating ?? [shown]);
}

export function clearStatusLine(statusLine: StatusLinePrimitive): Promise<void> {
  return statusLine.show('', []);
}
