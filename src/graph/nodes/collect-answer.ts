/** collectAnswer: the agent's final message becomes the sub-answer. */
import { AIMessage } from '@langchain/core/messages';
import { messageText } from '../message-text.ts';
import type { AgentStateUpdate, AgentStateValue } from '../state.ts';

export const noAnswerText = 'I could not find an answer to this in the documents.';

export function collectAnswer(state: AgentStateValue): AgentStateUpdate {
  const last = [...state.messages]
    .reverse()
    .find((message) => AIMessage.isInstance(message) && !message.tool_calls?.length);
  const answer = last ? messageText(last).trim() : '';
  return { answer: answer || noAnswerText };
}

/** Whether the agent's last reply is a final answer with no text (a small model sometimes sends one). */
export function endsWithEmptyReply(state: Pick<AgentStateValue, 'messages'>): boolean {
  const last = state.messages.at(-1);
  return (
    last !== undefined &&
    AIMessage.isInstance(last) &&
    !last.tool_calls?.length &&
    messageText(last).trim() === ''
  );
}
