/**
 * The text the user will read, streamed as the model writes it: the final answer (one sub-question:
 * the orchestrator's final reply or the fallback; several: the aggregator's reply). Each model call
 * that may produce it starts a new text (its first token replaces what an earlier call showed); a
 * reply that turns out to be a tool call retracts what it streamed (the listener sees ''). A
 * clarification question reaches the same listener from the rewrite's JSON (clarification-text.ts).
 */
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { renumberCitations, visibleAnswerText } from './citations.ts';
import { turnContext } from './graph-dependencies.ts';

export interface AnswerTextStream {
  /** For `ModelClient.chat`'s `onToken`: undefined when nobody listens. */
  onToken?: (text: string) => void;
  /** Takes back what this call streamed (its reply was a tool call, not text for the user). */
  retract(): void;
}

/**
 * `citations`: the numbers the answer may cite; the stream shows them renumbered as the final answer
 * will be (citations.ts), and hides a `NOT_FOUND` first line.
 */
export function streamAnswerText(
  config: LangGraphRunnableConfig,
  citations: ReadonlySet<number>,
): AnswerTextStream {
  const onText = turnContext(config).onText;
  if (!onText) return { retract: () => {} };
  let soFar = '';
  let shown = false;
  const renumber = (text: string) => renumberCitations(text, citations).text;
  return {
    onToken: (token) => {
      soFar += token;
      const visible = visibleAnswerText(soFar, renumber);
      // Leading whitespace alone is not worth showing.
      if (!shown && visible.trim() === '') return;
      shown = true;
      onText(visible, 'answer');
    },
    retract: () => {
      if (shown) onText('', 'answer');
      shown = false;
      soFar = '';
    },
  };
}
