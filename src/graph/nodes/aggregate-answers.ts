/**
 * aggregateAnswers: one coherent answer from the sub-answers, in the order of the questions, ending
 * with the sources built from what was actually retrieved. When no sub-question found anything, the
 * sources are "none" and no model call combines anything: the agents' own replies (told to say the
 * documents do not cover it) stand, or a plain "not covered" when they are empty.
 */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { FileKind } from '../../core/file-kind.ts';
import { streamAnswerText } from '../answer-text.ts';
import { turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { aggregatePrompt } from '../prompts.ts';
import {
  appendSources,
  collectSources,
  linkSources,
  stripSourcesBlock,
  toRetrievedContext,
} from '../sources.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from '../state.ts';
import { noAnswerText } from './collect-answer.ts';

export const notCoveredText =
  'The documents I can search do not cover this: nothing relevant was found. Try other words, or add a document that covers it.';

/** The user's message as the aggregator sees it: the question and the replies to any clarification. */
export function userMessageWithClarifications(
  state: Pick<MainStateValue, 'originalQuery' | 'pendingClarifications'>,
): string {
  const rounds = state.pendingClarifications.map(
    (round) => `You asked: ${round.question}\nThe user replied: ${round.reply}`,
  );
  return [state.originalQuery, ...rounds].join('\n');
}

export function createAggregateAnswers() {
  return async (state: MainStateValue, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    emitProgress(config, { type: 'aggregating' });
    const answers = state.agentAnswers.slice().sort((a, b) => a.index - b.index);
    const foundNothing = answers.every((answer) => answer.contexts.length === 0);
    let body: string;
    if (foundNothing) {
      body = answers
        .map((answer) => stripSourcesBlock(answer.answer))
        .filter((text) => text && text !== noAnswerText)
        .join('\n\n');
      body ||= notCoveredText;
    } else if (answers.length === 1) {
      body = stripSourcesBlock(answers[0]?.answer ?? '');
    } else {
      const parts = answers.map(
        (answer, position) =>
          `Sub-question ${position + 1}: ${answer.question}\nSub-answer ${position + 1}:\n${answer.answer}`,
      );
      const text = streamAnswerText(config);
      const reply = await turnContext(config).model.chat({
        purpose: 'aggregate',
        signal: config.signal,
        ...(text.onToken ? { onToken: text.onToken } : {}),
        messages: [
          new SystemMessage(aggregatePrompt),
          new HumanMessage(`User message:\n${userMessageWithClarifications(state)}\n\n${parts.join('\n\n')}`),
        ],
      });
      body = stripSourcesBlock(messageText(reply));
      if (!body) body = answers.map((answer) => stripSourcesBlock(answer.answer)).join('\n\n');
    }
    if (!body) body = noAnswerText;
    const documentIds = [
      ...new Set(answers.flatMap((answer) => answer.contexts.map((context) => context.documentId))),
    ];
    const details = await turnContext(config).tools.documentDetails(documentIds, config.signal);
    const kinds = new Map<string, FileKind>();
    const links = new Map<string, string>();
    for (const [id, detail] of details) {
      if (detail.kind) kinds.set(id, detail.kind);
      if (detail.link) links.set(id, detail.link);
    }
    const sources = linkSources(
      collectSources(
        answers.map((answer) => answer.contexts),
        kinds,
      ),
      links,
    );
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
