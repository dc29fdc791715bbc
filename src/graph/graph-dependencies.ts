/**
 * What the graph's nodes need. `GraphDependencies` is fixed when the graph is compiled (once, at
 * start); `TurnContext` changes per turn and reaches the nodes through LangGraph's runtime context
 * (`config.context`), never through the checkpointed state.
 */
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Config } from '../config.ts';
import type { StreamedTextKind } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { ModelClient } from './model-client.ts';
import type { RetrievalTools } from './retrieval-tools.ts';

export interface HistoryWindow {
  /** Plain chat messages kept verbatim before the current one. */
  keepRecent: number;
  /** Fold into the summary once this many older messages have piled up. */
  foldBatch: number;
}

export const defaultHistoryWindow: HistoryWindow = { keepRecent: 4, foldBatch: 4 };

export interface GraphDependencies {
  limits: Config['limits'];
  /** Tokens of context the chat model is asked to use (`OLLAMA_NUM_CTX`); steers compression. */
  contextWindow: number;
  history?: HistoryWindow;
}

/** Per turn: the model client (with this turn's usage counter and LLM-limit slot) and the scoped tools. */
export interface TurnContext {
  model: ModelClient;
  tools: RetrievalTools;
  /** Told the text of the final answer so far as the model writes it ('' takes it back). */
  onText?: (textSoFar: string, kind: StreamedTextKind) => void;
}

export function turnContext(config: LangGraphRunnableConfig): TurnContext {
  const context = (config as { context?: Partial<TurnContext> }).context;
  if (!context?.model || !context.tools) {
    throw new RagentError('INTERNAL', errorMessages.INTERNAL.graphWithoutContext());
  }
  return context as TurnContext;
}
