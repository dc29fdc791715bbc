/** What the graph's nodes need, built per request by the conversations module. */
import type { Config } from '../config.ts';
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
  model: ModelClient;
  tools: RetrievalTools;
  limits: Config['limits'];
  history?: HistoryWindow;
}
