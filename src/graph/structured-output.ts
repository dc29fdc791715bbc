/**
 * Structured output from a small model: ask for JSON matching a schema (Ollama's `format`, or an
 * OpenAI-compatible server's `response_format` json_schema, not strict), validate with zod,
 * and when the reply is not valid give the model one correction round before failing with
 * MODEL_OUTPUT_INVALID (never a crash, never a loop).
 */
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { messageText } from './message-text.ts';
import type { ModelClient } from './model-client.ts';

export interface StructuredRequest<T> {
  purpose: string;
  messages: BaseMessage[];
  schema: z.ZodType<T>;
  jsonSchema: Record<string, unknown>;
  signal?: AbortSignal;
  /** Correction rounds after the first reply (default 1). */
  corrections?: number;
  /** Streams each round's reply as it is written (a call that passed on text is not retried). */
  onToken?: (text: string) => void;
  /** A correction round begins: what `onToken` saw of the previous round is void. */
  onRestart?: () => void;
}

export async function chatStructured<T>(model: ModelClient, request: StructuredRequest<T>): Promise<T> {
  const messages = request.messages.slice();
  const rounds = 1 + (request.corrections ?? 1);
  let problem = '';
  for (let round = 0; round < rounds; round++) {
    if (round > 0) request.onRestart?.();
    const reply = await model.chat({
      purpose: request.purpose,
      messages,
      format: request.jsonSchema,
      signal: request.signal,
      ...(request.onToken ? { onToken: request.onToken } : {}),
    });
    const text = messageText(reply);
    const parsed = parseJson(text);
    if (parsed.ok) {
      const validated = request.schema.safeParse(parsed.value);
      if (validated.success) return validated.data;
      problem = z.prettifyError(validated.error);
    } else {
      problem = parsed.error;
    }
    messages.push(
      new AIMessage(text),
      new HumanMessage(
        `That reply was not valid: ${problem}\nReply again with only a JSON object matching the schema.`,
      ),
    );
  }
  throw new RagentError('MODEL_OUTPUT_INVALID', errorMessages.MODEL_OUTPUT_INVALID(), {
    details: { purpose: request.purpose, problem },
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  if (!trimmed) return { ok: false, error: 'the reply was empty' };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    const start = trimmed.indexOf('{');
    const end = trimmed.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        return { ok: true, value: JSON.parse(trimmed.slice(start, end + 1)) };
      } catch {}
    }
    return { ok: false, error: 'the reply was not JSON' };
  }
}
