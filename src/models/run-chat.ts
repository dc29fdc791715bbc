/**
 * One chat call through a LangChain chat model, shared by both providers: bind the tools, then either
 * invoke it, or stream it — passing each piece of text to `onToken` — and join the pieces into one
 * reply with the tool calls and token usage of the whole.
 */
import { AIMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import type { ChatModelCall } from '../core/model-provider.ts';

export interface ToolBindable {
  bindTools(tools: Array<Record<string, unknown>>): Runnable<BaseMessage[], AIMessageChunk>;
}

export async function runChat(
  model: Runnable<BaseMessage[], AIMessageChunk> & ToolBindable,
  request: ChatModelCall,
  callOptions: Record<string, unknown> = {},
): Promise<AIMessage> {
  const runnable = request.tools?.length ? model.bindTools([...request.tools]) : model;
  const options = { ...callOptions, signal: request.signal };
  if (!request.onToken) {
    const reply = await runnable.invoke(request.messages, options);
    request.signal.throwIfAborted();
    return toAiMessage(reply);
  }
  let joined: AIMessageChunk | undefined;
  for await (const chunk of await runnable.stream(request.messages, options)) {
    request.signal.throwIfAborted();
    joined = joined ? joined.concat(chunk) : chunk;
    const text = typeof chunk.content === 'string' ? chunk.content : '';
    if (text.length > 0) request.onToken(text);
  }
  request.signal.throwIfAborted();
  return toAiMessage(joined);
}

function toAiMessage(reply: AIMessage | AIMessageChunk | undefined): AIMessage {
  if (!reply) return new AIMessage('');
  return new AIMessage({
    content: reply.content,
    tool_calls: reply.tool_calls ?? [],
    ...(reply.id ? { id: reply.id } : {}),
    ...(reply.usage_metadata ? { usage_metadata: reply.usage_metadata } : {}),
    response_metadata: reply.response_metadata,
    additional_kwargs: reply.additional_kwargs,
  });
}
