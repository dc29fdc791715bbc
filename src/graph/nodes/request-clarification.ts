/**
 * requestClarification: pauses the thread with an interrupt until the user replies. LangGraph re-runs
 * this node from the top on resume, so nothing before `interrupt()` has side effects.
 */
import { interrupt } from '@langchain/langgraph';
import type { MainStateUpdate, MainStateValue } from '../state.ts';

export interface ClarificationInterrupt {
  question: string;
}

export function requestClarification(state: MainStateValue): MainStateUpdate {
  const question = state.clarificationQuestion;
  const reply = interrupt<ClarificationInterrupt, unknown>({ question });
  const text = typeof reply === 'string' ? reply : JSON.stringify(reply);
  return { pendingClarifications: [{ question, reply: text }], pendingQuery: text };
}
