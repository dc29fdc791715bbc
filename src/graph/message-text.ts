/** Plain text of a LangChain message, whatever shape its content has. */
import type { BaseMessage } from '@langchain/core/messages';

export function messageText(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      typeof part === 'string' ? part : 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}
