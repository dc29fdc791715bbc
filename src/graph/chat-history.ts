/** The chat history as the prompts show it: only people's messages and the bot's final answers. */
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { messageText } from './message-text.ts';

export function isChatMessage(message: BaseMessage): boolean {
  return HumanMessage.isInstance(message) || (AIMessage.isInstance(message) && !message.tool_calls?.length);
}

export function formatHistory(messages: readonly BaseMessage[]): string {
  const lines = messages
    .filter(isChatMessage)
    .map(
      (message) =>
        `${HumanMessage.isInstance(message) ? 'User' : 'Assistant'}: ${messageText(message).trim()}`,
    );
  return lines.length > 0 ? lines.join('\n\n') : '(none)';
}
