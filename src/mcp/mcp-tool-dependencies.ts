/** What the MCP tools are given: the same services the CLI uses, and the scopes fixed at start. */
import type { Conversations, Ingestion, Scope } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';

export interface McpToolDependencies {
  retriever: Retriever;
  ingestion: Pick<Ingestion, 'listDocuments'>;
  conversations: Conversations;
  /** The ceiling: every tool searches these or one of them, never another. */
  scopes: readonly Scope[];
  /** Writes to stderr: on stdio, stdout is the protocol. */
  logger: Logger;
}
