/**
 * aggregateAnswers: one coherent answer from the sub-answers, in the order of the questions, ending
 * with the sources built from what was actually retrieved.
 */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { GraphDependencies } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { aggregatePrompt } from '../prompts.ts';
import { appendSources, collectSources, stripSourcesBlock, toRetrievedContext } from '../sources.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from '../state.ts';

export function createAggregateAnswers(dependencies: GraphDependencies) {
  return async (state: MainStateValue, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    emitProgress(config, { type: 'aggregating' });
    const answers = state.agentAnswers.slice().sort((a, b) => a.index - b.index);
    let body: string;
    if (answers.length === 1) {
      body = stripSourcesBlock(answers[0]?.answer ?? '');
    } else {
      const parts = answers.map(
        (answer, position) =>
          `Sub-question ${position + 1}: ${answer.question}\nSub-answer ${position + 1}:\n${answer.answer}`,
      );
      const reply = await dependencies.model.chat({
        purpose: 'aggregate',
        signal: config.signal,
        messages: [
          new SystemMessage(aggregatePrompt),
          new HumanMessage(`User message:\n${state.originalQuery}\n\n${parts.join('\n\n')}`),
        ],
      });
      body = stripSourcesBlock(messageText(reply));
      if (!body) body = answers.map((answer) => stripSourcesBlock(answer.answer)).join('\n\n');
    }
    if (!body) body = 'I could not find an answer to this in the documents.';
    const sources = collectSources(answers.map((answer) => answer.contexts));
    const markdown = appendSources(body, sources);
    return {
      outcome: {
        kind: 'answer',
        markdown,
        body,
        sources,
        contexts: answers.flatMap((answer) => answer.contexts.map(toRetrievedContext)),
        subQuestions: answers.map((answer) => answer.question),
        toolCalls: answers.reduce((sum, answer) => sum + answer.toolCalls, 0),
      },
      // Only the answer itself joins the chat history (its sources block would only cost tokens later).
      messages: [new AIMessage(body)],
      pendingClarifications: resetList,
    };
  };
}
