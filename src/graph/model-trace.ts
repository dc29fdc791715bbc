/**
 * Wraps a model client so every call of a turn is reported as a `ModelCallRecord`: the messages, tools,
 * schema and options exactly as sent, the reply or the failure. Used by `ragent ask --trace`.
 */
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ModelCallRecord } from '../core/types.ts';
import { describeError } from '../errors.ts';
import { messageText } from './message-text.ts';
import type { ModelClient } from './model-client.ts';

const roles: Record<string, ModelCallRecord['messages'][number]['role']> = {
  system: 'system',
  human: 'user',
  ai: 'assistant',
  tool: 'tool',
};

function toolCallsOf(message: BaseMessage) {
  if (!AIMessage.isInstance(message) || !message.tool_calls?.length) return undefined;
  return message.tool_calls.map((call) => ({ name: call.name, args: call.args as Record<string, unknown> }));
}

export function recordMessage(message: BaseMessage): ModelCallRecord['messages'][number] {
  const toolCalls = toolCallsOf(message);
  return {
    role: roles[message.getType()] ?? 'user',
    content: messageText(message),
    ...(toolCalls ? { toolCalls } : {}),
    ...(ToolMessage.isInstance(message) && message.name ? { name: message.name } : {}),
  };
}

export function traceModelCalls(
  model: ModelClient,
  listener: (call: ModelCallRecord) => void,
  options: Record<string, unknown>,
): ModelClient {
  return {
    async chat(request) {
      const started = performance.now();
      const base = {
        purpose: request.purpose,
        at: new Date().toISOString(),
        options,
        messages: request.messages.map(recordMessage),
        ...(request.tools ? { tools: request.tools } : {}),
        ...(request.format ? { format: request.format } : {}),
      };
      const report = (fields: Partial<ModelCallRecord>) => {
        try {
          listener({ ...base, milliseconds: Math.round(performance.now() - started), ...fields });
        } catch {
          // A trace that cannot be written must not end the turn.
        }
      };
      try {
        const reply = await model.chat(request);
        const toolCalls = toolCallsOf(reply);
        report({ reply: { content: messageText(reply), ...(toolCalls ? { toolCalls } : {}) } });
        return reply;
      } catch (error) {
        report({ error: describeError(error) });
        throw error;
      }
    },
  };
}
