/**
 * rewriteQuery: turns the user's message (plus any clarification replies) into up to three
 * self-contained questions, or decides that a clarification is needed. When the model's structured
 * reply is invalid even after a correction, the user's own message becomes the one question.
 */
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { z } from 'zod';
import { isRagentError } from '../../errors.ts';
import { formatHistory } from '../chat-history.ts';
import { streamClarificationText } from '../clarification-text.ts';
import { defaultHistoryWindow, type GraphDependencies, turnContext } from '../graph-dependencies.ts';
import { emitProgress } from '../progress.ts';
import { fallbackClarification, rewritePrompt, rewriteThreadPrompt } from '../prompts.ts';
import type { MainStateUpdate, MainStateValue } from '../state.ts';
import { chatStructured } from '../structured-output.ts';

export const maxQuestions = 3;
const shortestClarification = 12;

export const rewriteSchema = z.object({
  isClear: z.boolean(),
  questions: z.array(z.string()).default([]),
  clarificationNeeded: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  /** Asked only in a thread the bot joined: the question is about the thread itself. */
  fromThread: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});

export const rewriteJsonSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    isClear: { type: 'boolean' },
    questions: { type: 'array', items: { type: 'string' }, maxItems: maxQuestions },
    clarificationNeeded: { type: 'string' },
  },
  required: ['isClear', 'questions', 'clarificationNeeded'],
};

/** The schema in a thread the bot joined: one more yes/no, kept simple for small models. */
export const rewriteThreadJsonSchema: Record<string, unknown> = {
  ...rewriteJsonSchema,
  properties: { ...(rewriteJsonSchema.properties as object), fromThread: { type: 'boolean' } },
  required: ['isClear', 'questions', 'clarificationNeeded', 'fromThread'],
};

export function createRewriteQuery(dependencies: GraphDependencies) {
  const window = dependencies.history ?? defaultHistoryWindow;
  return async (state: MainStateValue, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    emitProgress(config, { type: 'rewriting' });
    const recent = state.messages.slice(0, -1).slice(-window.keepRecent);
    const clarifications = state.pendingClarifications
      .map(
        (round, index) =>
          `Clarification ${index + 1}: you asked "${round.question}" and the user replied "${round.reply}"`,
      )
      .join('\n');
    const thread = state.threadContext;
    const prompt = [
      ...(thread ? [`Earlier messages in this thread:\n${thread}`] : []),
      `Conversation summary:\n${state.conversationSummary || '(none)'}`,
      `Recent messages:\n${formatHistory(recent)}`,
      `User message:\n${state.originalQuery}`,
      ...(clarifications ? [`Clarifications so far:\n${clarifications}`] : []),
    ].join('\n\n');
    const roundsLeft = state.pendingClarifications.length < dependencies.limits.maxClarificationRounds;
    // A clarification question shows as the model writes it (only when one may still be asked).
    const clarificationText = roundsLeft ? streamClarificationText(config) : undefined;
    let result: z.infer<typeof rewriteSchema>;
    try {
      result = await chatStructured(turnContext(config).model, {
        purpose: 'rewrite',
        signal: config.signal,
        schema: rewriteSchema,
        jsonSchema: thread ? rewriteThreadJsonSchema : rewriteJsonSchema,
        messages: [new SystemMessage(thread ? rewriteThreadPrompt : rewritePrompt), new HumanMessage(prompt)],
        ...(clarificationText?.onToken
          ? { onToken: clarificationText.onToken, onRestart: clarificationText.restart }
          : {}),
      });
    } catch (error) {
      clarificationText?.retract();
      if (!isRagentError(error) || error.code !== 'MODEL_OUTPUT_INVALID') throw error;
      result = {
        isClear: true,
        questions: [unrewrittenQuestion(state)],
        clarificationNeeded: '',
        fromThread: false,
      };
    }
    // A question about the thread itself is answered from it: no search, no clarification.
    if (thread && result.fromThread) {
      clarificationText?.retract();
      return {
        questionIsClear: true,
        answerFromThread: true,
        rewrittenQuestions: [],
        clarificationQuestion: '',
      };
    }
    const questions = normalizeQuestions(result.questions);
    // "Clear" but no questions: the message itself is the question.
    if (result.isClear && questions.length === 0) questions.push(state.originalQuery.trim());
    if (result.isClear && questions.length > 0) {
      clarificationText?.retract();
      emitProgress(config, { type: 'planned', questions });
      return {
        questionIsClear: true,
        answerFromThread: false,
        rewrittenQuestions: questions,
        clarificationQuestion: '',
      };
    }
    const clarification = result.clarificationNeeded.trim();
    if (roundsLeft) emitProgress(config, { type: 'clarifying' });
    return {
      questionIsClear: false,
      rewrittenQuestions: [],
      clarificationQuestion:
        clarification.length >= shortestClarification ? clarification : fallbackClarification,
    };
  };
}

/** The user's message as it stands, with any clarification replies, when the rewrite failed. */
export function unrewrittenQuestion(
  state: Pick<MainStateValue, 'originalQuery' | 'pendingClarifications'>,
): string {
  const replies = state.pendingClarifications.map((round) => round.reply.trim()).filter(Boolean);
  const question = state.originalQuery.trim();
  return replies.length > 0 ? `${question} (${replies.join('; ')})` : question;
}

function normalizeQuestions(questions: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const question of questions) {
    const text = question.trim();
    const key = text.toLowerCase();
    if (text.length < 2 || seen.has(key)) continue;
    seen.add(key);
    result.push(text);
    if (result.length === maxQuestions) break;
  }
  return result;
}
