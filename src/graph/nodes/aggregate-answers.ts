/**
 * aggregateAnswers: one coherent answer from the sub-answers, in the order of the questions, ending
 * with the sources it cites (citations.ts), or with what was read when it cites nothing. When no
 * sub-question found anything, no model call combines anything: the agents' own replies (told to say
 * the documents do not cover it) stand, or a plain "not covered" when they are empty; the answer is
 * then "not found" and says what was searched instead of listing sources.
 */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { FileKind } from '../../core/file-kind.ts';
import type { Source } from '../../core/types.ts';
import { streamAnswerText } from '../answer-text.ts';
import { citationNumbers, citeAnswer, notFoundMarker } from '../citations.ts';
import { turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { aggregatePrompt } from '../prompts.ts';
import {
  appendSearches,
  appendSources,
  linkSources,
  stripSourcesBlock,
  toRetrievedContext,
} from '../sources.ts';
import { type AgentAnswer, type MainStateUpdate, type MainStateValue, resetList } from '../state.ts';
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
    const contextsPerAnswer = answers.map((answer) => answer.contexts);
    // Each sub-answer on its own: did it find anything? Only found ones need combining.
    const settled = answers.map((answer) => ({
      answer,
      cited: citeAnswer(stripSourcesBlock(answer.answer), [answer.contexts]),
    }));
    const found = settled.filter((each) => each.cited.outcome === 'answered');
    let text: string;
    if (found.length === 0) {
      // Nothing to combine: the agents' own words on what is missing stand, without a model call.
      text = settled
        .map((each) => each.cited.body)
        .filter((body) => body && body !== noAnswerText)
        .join('\n\n');
      text = `${notFoundMarker}\n${text || notCoveredText}`;
    } else if (answers.length === 1) {
      text = stripSourcesBlock(answers[0]?.answer ?? '');
    } else {
      const parts = settled.map(
        ({ answer, cited }, position) =>
          `Sub-question ${position + 1}: ${answer.question}\nSub-answer ${position + 1}:\n${
            cited.outcome === 'answered'
              ? answer.answer
              : `Not found in the documents. ${cited.body || noAnswerText}`
          }`,
      );
      const known = citationNumbers(contextsPerAnswer.flat());
      const stream = streamAnswerText(config, known);
      const reply = await turnContext(config).model.chat({
        purpose: 'aggregate',
        signal: config.signal,
        ...(stream.onToken ? { onToken: stream.onToken } : {}),
        messages: [
          new SystemMessage(aggregatePrompt),
          new HumanMessage(`User message:\n${userMessageWithClarifications(state)}\n\n${parts.join('\n\n')}`),
        ],
      });
      text = stripSourcesBlock(messageText(reply));
      if (!text) text = found.map(({ answer }) => stripSourcesBlock(answer.answer)).join('\n\n');
    }
    // Each document's kind (slides, sheets and sections are cited in their own terms) and upload link.
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
    let cited = citeAnswer(text || noAnswerText, contextsPerAnswer, { kinds });
    if (cited.outcome === 'not-found' && found.length > 0 && answers.length > 1) {
      // The combined answer opens with the part that was not found, but other parts were: it answers.
      cited = citeAnswer(
        text,
        found.map(({ answer }) => answer.contexts),
        { answered: true, kinds },
      );
    }
    const body = cited.body || (cited.outcome === 'not-found' ? notCoveredText : noAnswerText);
    let markdown: string;
    let sources: Source[] = [];
    if (cited.outcome === 'not-found') {
      markdown = appendSearches(body, searchesOf(answers));
    } else {
      sources = linkSources(cited.sources, links);
      markdown = appendSources(body, sources, cited.numbered);
    }
    return {
      outcome: {
        kind: 'answer',
        outcome: cited.outcome,
        citesByNumber: cited.numbered,
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

/** Every sub-question's searches, each once, in order. */
function searchesOf(answers: readonly AgentAnswer[]): string[] {
  return [...new Set(answers.flatMap((answer) => answer.searches ?? []))];
}
