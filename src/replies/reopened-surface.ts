/**
 * The surface of a recorded turn reached again (after a crash, or a stop that abandoned it), on any
 * platform: over its status message where one was recorded — the outcome replaces it, or is posted
 * where it is gone (`reply-surface.ts`) — else posted anew. The platform only says which recorded
 * message was the status and builds its port over the recorded place.
 */
import type { ReplySurface } from '../core/chat-platform.ts';
import type { ReplyPort } from './reply-port.ts';
import { replySurface } from './reply-surface.ts';

/**
 * `showsIngestResult`, where the platform can read a message back: whether the status message already
 * shows the ingest's final result. The record of an ingest whose result was posted may outlive it
 * when forgetting it failed (a full disk): then the result stays, rather than being replaced by a
 * false "restarted" notice. A message that cannot be read back is taken as not showing it.
 */
export function reopenedSurface<Message>(
  port: ReplyPort<Message>,
  statusId: string | undefined,
  showsIngestResult?: (id: string) => Promise<boolean>,
): ReplySurface {
  const surface = replySurface(port, statusId ? [statusId] : []);
  if (!statusId || !showsIngestResult) return surface;
  return {
    ...surface,
    finish: async (reply) => {
      const shown =
        reply.kind === 'interrupted-ingest' &&
        (await showsIngestResult(statusId).catch((error: unknown) => {
          port.logger.debug({ err: error }, 'could not read the ingest message');
          return false;
        }));
      if (shown) {
        port.logger.info({ location: port.location(statusId) }, 'the ingest result was already posted');
        return;
      }
      await surface.finish(reply);
    },
  };
}
