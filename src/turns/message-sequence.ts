/**
 * The messages one reply surface shows, in order, over a platform's post / edit / delete: a status
 * message, then the parts of an answer as it is written (a part that fills up continues in a new
 * message), then the reply, which replaces them in order — further parts posted, parts it no longer
 * needs deleted. A part that cannot be deleted is edited into a short note pointing at the answer, so
 * no stale "working…" or half-written message stays in the thread. A later reply (after an overdue
 * notice) follows as new messages. Written once for every platform that shows a reply as messages.
 */
import type { Logger } from '../logger.ts';

export interface MessagePrimitives<Part> {
  /** Posts a new message; `index` is its place in the reply (0: the first). Resolves with its id. */
  post(part: Part, index: number): Promise<string>;
  edit(id: string, part: Part): Promise<void>;
  remove(id: string): Promise<void>;
  /** What a message becomes when it cannot be deleted: a short note pointing at the answer. */
  readonly leftoverNote: Part;
  readonly logger: Logger;
}

export interface MessageSequence<Part> {
  /** The message the turn's outcome should reach: the last one shown. */
  last(): string | undefined;
  /** How many parts of an answer being written show (0: none yet). */
  shownParts(): number;
  /**
   * Hands the messages shown so far to the caller (which deletes them: text moved elsewhere) and
   * goes on with `next` (a native stream's message, or none).
   */
  moveOn(next: readonly string[]): string[];
  /** Edits the last message (the status), if there is one. */
  showStatus(part: Part): Promise<void>;
  /** Shows the parts of an answer being written: changed parts edited, new ones posted. */
  showParts(parts: readonly Part[], key: (part: Part) => string): Promise<void>;
  /** Replaces what was shown with the reply's parts; leftovers deleted (or turned into the note). */
  finish(parts: readonly Part[]): Promise<void>;
}

export function messageSequence<Part>(
  primitives: MessagePrimitives<Part>,
  first: readonly string[],
): MessageSequence<Part> {
  const { logger } = primitives;
  let ids = [...first];
  const shownKeys: string[] = [];
  return {
    last: () => ids.at(-1),
    shownParts: () => shownKeys.length,
    moveOn: (next) => {
      const taken = ids;
      ids = [...next];
      return taken;
    },
    showStatus: async (part) => {
      const current = ids.at(-1);
      if (current) await primitives.edit(current, part);
    },
    showParts: async (parts, key) => {
      for (const [index, part] of parts.entries()) {
        const shown = key(part);
        if (shownKeys[index] === shown) continue;
        const id = ids[index];
        if (id) await primitives.edit(id, part);
        else ids.push(await primitives.post(part, index));
        shownKeys[index] = shown;
      }
    },
    finish: async (parts) => {
      const targets = ids;
      // A later reply (after an overdue notice) follows as new messages.
      ids = [];
      shownKeys.length = 0;
      for (const [index, part] of parts.entries()) {
        const target = targets[index];
        if (target) {
          try {
            await primitives.edit(target, part);
            continue;
          } catch (error) {
            // The message is gone (deleted by someone): post instead.
            logger.debug({ err: error }, 'could not edit a message; posting');
          }
        }
        await primitives.post(part, index);
      }
      // Parts the reply no longer needs (it came out shorter than what was streamed).
      for (const target of targets.slice(parts.length)) await removeOrNote(primitives, target);
    },
  };
}

/** Deletes a message; where that fails, edits it into the note pointing at the answer. */
export async function removeOrNote<Part>(primitives: MessagePrimitives<Part>, id: string): Promise<void> {
  try {
    await primitives.remove(id);
  } catch (error) {
    try {
      await primitives.edit(id, primitives.leftoverNote);
      primitives.logger.debug({ err: error }, 'could not delete a message; it now points at the answer');
    } catch (editError) {
      primitives.logger.warn(
        { err: error, editError },
        'could not delete or edit a leftover message: it still shows what was written',
      );
    }
  }
}
