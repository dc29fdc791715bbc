/**
 * Shows a job's first status and returns the surface that follows it: on the platform's status line
 * where it has one and takes it here — learnt once per place (the port's `refusals`), turns starting
 * together wait for that one try — else in a new status message, which the reply will replace.
 */
import type { ReplySurface, Status } from '../core/chat-platform.ts';
import { loadingLines, workingLine } from '../turns/messages-en.ts';
import type { ReplyPort } from './reply-port.ts';
import { replySurface } from './reply-surface.ts';
import { setStatusLine } from './status-line.ts';

export async function openReplySurface<Message>(
  port: ReplyPort<Message>,
  first: Status = { kind: 'working', line: workingLine },
): Promise<ReplySurface> {
  const { statusLine, ...messagesOnly } = port;
  const here = port.refusals;
  const known = here?.learnt.statusLineTry(here.place);
  if (statusLine && here && (known === undefined || (await known))) {
    // The first status rotates the catalogue's loading lines until progress comes.
    const tried = setStatusLine(statusLine, workingLine.toLowerCase(), loadingLines).then(
      () => true,
      (error: unknown) => {
        port.logger.debug({ err: error, place: here.place }, 'no status line here; using a status message');
        return false;
      },
    );
    if (known === undefined) here.learnt.tryingStatusLine(here.place, tried);
    if (await tried) return replySurface(port, []);
  }
  const status = await port.post(port.render.status(first), 0);
  return replySurface(messagesOnly, [status]);
}

/**
 * Opens the surface in the first of `ports` (the places to try, in order) where the platform lets the
 * status be posted: an error that `cannotPost` tells is the platform's "you cannot post here" moves
 * on to the next place; any other error, or the last place's, is thrown.
 */
export async function openFirstReplySurface<Message>(
  ports: ReadonlyArray<ReplyPort<Message>>,
  first: Status,
  cannotPost: (error: unknown) => boolean,
): Promise<ReplySurface> {
  let lastError: unknown = new Error('no place to show the status');
  for (const port of ports) {
    try {
      return await openReplySurface(port, first);
    } catch (error) {
      lastError = error;
      port.logger.warn({ err: error, location: port.location(undefined) }, 'cannot post the status here');
      if (!cannotPost(error)) break;
    }
  }
  throw lastError;
}
