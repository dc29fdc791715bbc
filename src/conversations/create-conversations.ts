import type { Config } from '../config.ts';
import type { Conversations } from '../core/types.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';

export interface ConversationsDependencies {
  config: Config;
  logger: Logger;
  retriever: Retriever;
}

// Placeholder until issue #4 builds the graph.
export async function createConversations(_dependencies: ConversationsDependencies): Promise<Conversations> {
  const notYet = () =>
    Promise.reject(new RagentError('INTERNAL', 'Conversations are not built yet (issue #4).'));
  return { handle: notYet, hasThread: notYet, close: async () => {} };
}
