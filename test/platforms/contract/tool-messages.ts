/** The tool results (what a search or a read returned) in one request to the fake model. */
import type { FakeChatRequest } from '../../fakes/fake-ollama.ts';

export function toolMessages(request: FakeChatRequest): string[] {
  return request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
}
