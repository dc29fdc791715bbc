/**
 * Conversations built on their first use. The answer graph needs LangGraph and the chat model's
 * LangChain classes, which take longer to load than most CLI commands take to run; `ragent docs list`
 * or `ragent search` never answer, so they never load them. `ragent start` builds them at once.
 */
import type { Conversations } from '../core/types.ts';

export function deferConversations(create: () => Promise<Conversations>): Conversations {
  let created: Promise<Conversations> | undefined;
  const conversations = () => {
    created ??= create();
    return created;
  };
  return {
    handle: async (request, onProgress, options) =>
      (await conversations()).handle(request, onProgress, options),
    hasThread: async (threadId) => (await conversations()).hasThread(threadId),
    forgetThread: async (threadId) => (await conversations()).forgetThread?.(threadId),
    close: async () => {
      // Never built: nothing to close (and nothing to load just to close it).
      const built = await created?.catch(() => undefined);
      await built?.close();
    },
  };
}
