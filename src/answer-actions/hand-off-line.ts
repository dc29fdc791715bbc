/**
 * The one line of a hand-off (`turns/hand-off.ts`): it mentions the target and nothing else. The
 * platform makes the mention of a stored target and posts the text allowing only that one to ping.
 */
import { handOffText } from '../turns/messages-en.ts';

export async function postHandOffLine(
  target: string,
  mention: string | undefined,
  post: (text: string) => Promise<unknown>,
): Promise<void> {
  // A target the platform cannot mention (a stale or mistyped id) posts nothing rather than a line naming nobody.
  if (!mention) throw new Error(`cannot mention the hand-off target ${target}`);
  await post(handOffText(mention));
}
