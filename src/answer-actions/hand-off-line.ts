/**
 * The one line of a hand-off (`turns/hand-off.ts`): it mentions the target, and nothing else may ping.
 * The platform says how it mentions a stored target, and posts the text letting only that one ping.
 */
import type { ThreadId } from '../core/types.ts';
import { handOffText } from '../turns/messages-en.ts';

export interface HandOffWire {
  /** The platform's mention of a stored target (`S123`, `role:123`); undefined for anything else. */
  mention(target: string): string | undefined;
  /** Posts `text` in the thread, allowing `target` (and nobody else) to be pinged. */
  post(threadId: ThreadId, text: string, target: string): Promise<void>;
}

export async function postHandOffLine(wire: HandOffWire, threadId: ThreadId, target: string): Promise<void> {
  const mention = wire.mention(target);
  if (!mention) throw new Error(`cannot hand off ${threadId} to ${target}`);
  await wire.post(threadId, handOffText(mention), target);
}
