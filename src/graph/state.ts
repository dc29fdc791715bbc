/**
 * The graph's state: the main conversation graph and the agent subgraph each get one annotation.
 * Everything here is checkpointed, so it stays plain data (LangChain messages serialise themselves).
 */
import type { BaseMessage } from '@langchain/core/messages';
import { Annotation, messagesStateReducer } from '@langchain/langgraph';
import type { AnswerOutcome, RetrievedContext, Source } from '../core/types.ts';

/** Passed as an update to a resettable list to empty it (the start of a turn). */
export const resetList = { reset: true } as const;
export type ListUpdate<T> = T[] | typeof resetList;

function appendOrReset<T>(current: T[], update: ListUpdate<T>): T[] {
  if (!Array.isArray(update)) return [];
  return current.concat(update);
}

function replace<T>(_current: T, update: T): T {
  return update;
}

/** A retrieved text with where it came from; `via` says whether the agent read the parent or only saw a hit. */
export interface AgentContext extends RetrievedContext {
  documentId: string;
  via: 'parent' | 'search';
  /**
   * The number the model cites this section by ([n]), one per parent id for the whole turn; absent in
   * contexts checkpointed before answers had citations.
   */
  citation?: number;
}

export interface AgentAnswer {
  index: number;
  question: string;
  answer: string;
  contexts: AgentContext[];
  toolCalls: number;
  fellBack: boolean;
  /** The searches the agent made (normalised queries), told to the user when nothing was found. */
  searches?: string[];
}

export interface ClarificationRound {
  question: string;
  reply: string;
}

export type TurnEnding =
  | {
      kind: 'answer';
      /** Absent in answers checkpointed before outcomes existed (they were answers). */
      outcome?: AnswerOutcome;
      /** The body cites `sources` by number ([1] is the first). */
      citesByNumber?: boolean;
      markdown: string;
      body: string;
      sources: Source[];
      contexts: RetrievedContext[];
      subQuestions: string[];
      toolCalls: number;
    }
  | { kind: 'stopped'; message: string };

export const MainState = Annotation.Root({
  /** The conversation as people see it: their messages and the final answers, nothing internal. */
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  /** Older turns folded into prose by summarizeHistory. */
  conversationSummary: Annotation<string>({ reducer: replace, default: () => '' }),
  /** The message that started this turn. */
  originalQuery: Annotation<string>({ reducer: replace, default: () => '' }),
  /** The latest text from the user in this turn (the question, or the reply to a clarification). */
  pendingQuery: Annotation<string>({ reducer: replace, default: () => '' }),
  /** Clarification rounds of this turn, oldest first. */
  pendingClarifications: Annotation<ClarificationRound[], ListUpdate<ClarificationRound>>({
    reducer: appendOrReset,
    default: () => [],
  }),
  questionIsClear: Annotation<boolean>({ reducer: replace, default: () => false }),
  clarificationQuestion: Annotation<string>({ reducer: replace, default: () => '' }),
  rewrittenQuestions: Annotation<string[]>({ reducer: replace, default: () => [] }),
  /** One per sub-question, in completion order; reset at the start of each turn. */
  agentAnswers: Annotation<AgentAnswer[], ListUpdate<AgentAnswer>>({
    reducer: appendOrReset,
    default: () => [],
  }),
  /** What this turn ended with; null while it runs. */
  outcome: Annotation<TurnEnding | null>({ reducer: replace, default: () => null }),
  /**
   * The thread's messages from before the bot joined it (one line each, oldest first; '' when the
   * bot started the thread). Set once, at the turn that joined it; later turns keep it.
   */
  threadContext: Annotation<string>({ reducer: replace, default: () => '' }),
  /** The rewrite found this turn asks about the thread itself: answered from it, no search. */
  answerFromThread: Annotation<boolean>({ reducer: replace, default: () => false }),
});

export type MainStateValue = typeof MainState.State;
export type MainStateUpdate = typeof MainState.Update;

/** What Send hands each agent run. */
export interface AgentTask {
  question: string;
  questionIndex: number;
  questionTotal: number;
}

function union(current: string[], update: string[]): string[] {
  const seen = new Set(current);
  const result = current.slice();
  for (const key of update) {
    if (!seen.has(key)) {
      seen.add(key);
      result.push(key);
    }
  }
  return result;
}

/** Keeps one context per parent id (or child id for hits), a parent read replacing the hits of that parent. */
function mergeContexts(current: AgentContext[], update: AgentContext[]): AgentContext[] {
  const byKey = new Map<string, AgentContext>();
  for (const context of [...current, ...update]) {
    const key = `${context.parentId}`;
    const existing = byKey.get(key);
    if (!existing || (existing.via === 'search' && context.via === 'parent')) byKey.set(key, context);
  }
  return [...byKey.values()];
}

export const AgentState = Annotation.Root({
  question: Annotation<string>({ reducer: replace, default: () => '' }),
  questionIndex: Annotation<number>({ reducer: replace, default: () => 0 }),
  questionTotal: Annotation<number>({ reducer: replace, default: () => 1 }),
  /** The agent's own exchange with the tools; never part of the chat history. */
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  /** What compressContext kept of earlier research. */
  contextSummary: Annotation<string>({ reducer: replace, default: () => '' }),
  /** `search:<query>` and `parent:<id>` already executed (a set). */
  retrievalKeys: Annotation<string[]>({ reducer: union, default: () => [] }),
  toolCallCount: Annotation<number>({ reducer: replace, default: () => 0 }),
  iterationCount: Annotation<number>({ reducer: replace, default: () => 0 }),
  contexts: Annotation<AgentContext[]>({ reducer: mergeContexts, default: () => [] }),
  answer: Annotation<string>({ reducer: replace, default: () => '' }),
  fellBack: Annotation<boolean>({ reducer: replace, default: () => false }),
});

export type AgentStateValue = typeof AgentState.State;
export type AgentStateUpdate = typeof AgentState.Update;
