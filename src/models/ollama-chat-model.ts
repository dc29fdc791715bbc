/**
 * The chat model on Ollama (`/api/chat` through @langchain/ollama): temperature 0, seed 42, num_ctx
 * from the config, OLLAMA_HEADERS / OLLAMA_API_KEY on every request, `format` for JSON-schema output.
 */
import { ChatOllama } from '@langchain/ollama';
import type { Config } from '../config.ts';
import type { ChatModel } from '../core/model-provider.ts';
import { describeModelFailure } from './model-failure.ts';
import { runChat } from './run-chat.ts';

export function createOllamaChatModel(config: Config): ChatModel {
  const settings = config.ollama;
  return {
    provider: 'ollama',
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    call(request) {
      const model = new ChatOllama({
        baseUrl: settings.baseUrl,
        model: settings.model,
        temperature: settings.temperature,
        seed: settings.seed,
        numCtx: settings.numCtx,
        maxRetries: 0,
        checkOrPullModel: false,
        ...(Object.keys(settings.headers).length > 0 ? { headers: { ...settings.headers } } : {}),
        ...(request.jsonSchema ? { format: request.jsonSchema.schema } : {}),
        fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
          fetch(input, {
            ...init,
            signal: init?.signal ? AbortSignal.any([init.signal, request.signal]) : request.signal,
          }),
      });
      return runChat(model as never, request);
    },
    describeFailure(error, request, attempts) {
      return describeModelFailure(error, {
        provider: 'ollama',
        baseUrl: settings.baseUrl,
        model: settings.model,
        modelVariable: 'OLLAMA_MODEL',
        task: 'answering',
        request,
        ...(attempts === undefined ? {} : { attempts }),
      });
    },
  };
}
