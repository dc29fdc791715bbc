/**
 * The thread a message is answered in, described once by each platform and used alike for a mention,
 * a follow-up and an "Ask ragent": its id, where it can be reached before the answer shows, the sets it
 * searches, how the answer's first status opens there (starting the thread first where the platform
 * must), and how its earlier messages read. The core opens every answer there the same way
 * (`openAnswer`): the first status, then the conversation's place with the asker as the turn's user.
 */
import type { Location, Place, ReplySurface } from '../core/chat-platform.ts';
import type { Scope, ThreadId, ThreadMessage } from '../core/types.ts';

/** Which of the thread's messages are context: before the question, or all but it and the bot's own. */
export type ThreadRange = { before: string } | { exclude: string; skipOwn: true };

export interface AnswerThread {
  threadId: ThreadId;
  /** Where the thread can be reached before `open` (recorded at once). */
  location: Location;
  scopes(): Promise<Scope[]>;
  /** Shows the first status in the thread (starting the thread first where the platform must). */
  open(question: string): Promise<ReplySurface>;
  read(range: ThreadRange, limit: number): Promise<ThreadMessage[]>;
}

/** Opens the answer to `question` in `thread`: its surface, and `user` as the turn's user there. */
export async function openAnswer(
  thread: AnswerThread,
  question: string,
  user: string,
): Promise<{ surface: ReplySurface; place: Place }> {
  const surface = await thread.open(question);
  return { surface, place: { threadId: thread.threadId, scopes: await thread.scopes(), user } };
}
