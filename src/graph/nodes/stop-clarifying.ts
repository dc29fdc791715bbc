/** stopClarifying: the clarification rounds are used up; end the turn politely. */
import { AIMessage } from '@langchain/core/messages';
import type { GraphDependencies } from '../graph-dependencies.ts';
import { clarificationStopMessage } from '../prompts.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from '../state.ts';

export function createStopClarifying(dependencies: GraphDependencies) {
  return (state: MainStateValue): MainStateUpdate => {
    const message = clarificationStopMessage(
      Math.max(state.pendingClarifications.length, dependencies.limits.maxClarificationRounds),
    );
    return {
      outcome: { kind: 'stopped', message },
      messages: [new AIMessage(message)],
      pendingClarifications: resetList,
    };
  };
}
