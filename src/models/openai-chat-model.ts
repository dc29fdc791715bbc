/**
 * The chat model on any OpenAI-compatible server (vLLM, llama.cpp, LM Studio, hosted APIs) through
 * @langchain/openai's Chat Completions client: temperature 0, seed 42, tools as given, and JSON-schema
 * output sent as `response_format: {type: 'json_schema', json_schema: {name, schema, strict: false}}`
 * (strict mode would refuse our optional fields; zod validates the reply instead).
 */
import type { Config } from '../config.ts';
import type { ChatModel } from '../core/model-provider.ts';
import { describeModelFailure } from './model-failure.ts';
import { openAiClientOptions } from './openai-client-options.ts';
import { runChat } from './run-chat.ts';

export function createOpenAiChatModel(config: Config): ChatModel {
  const settings = config.openai;
  const modelName = settings.model ?? '';
  // Imported only when this provider is configured (create-models.ts builds one of the two chat models):
  // @langchain/openai and the openai client cost an Ollama bot about 0.4 s of CPU at every start.
  // The import starts now, so a bot on an OpenAI-compatible server still has it loaded by its first turn.
  const langchain = import('@langchain/openai');
  langchain.catch(() => {}); // a failed import is reported by the first call that awaits it
  return {
    provider: 'openai',
    model: modelName,
    timeoutMs: settings.timeoutMs,
    async call(request) {
      const { ChatOpenAICompletions } = await langchain;
      const model = new ChatOpenAICompletions({
        model: modelName,
        temperature: settings.temperature,
        maxRetries: 0,
        timeout: settings.timeoutMs,
        streamUsage: true,
        ...openAiClientOptions(config),
      });
      const responseFormat = request.jsonSchema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: request.jsonSchema.name,
                schema: request.jsonSchema.schema,
                strict: false,
              },
            },
          }
        : {};
      return runChat(model as never, request, { seed: settings.seed, ...responseFormat });
    },
    describeFailure(error, request, attempts) {
      return describeModelFailure(error, {
        provider: 'openai',
        baseUrl: settings.baseUrl,
        model: modelName,
        modelVariable: 'OPENAI_MODEL',
        task: 'answering',
        request,
        ...(attempts === undefined ? {} : { attempts }),
      });
    },
  };
}
