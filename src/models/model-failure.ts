/**
 * What a failed model-server call tells the user, for both providers: each failure kind gets its own
 * error code and a message that names the setting to fix — never the server's address, which goes
 * into the error's details for the log.
 */
import type { ChatModelCall, ModelProviderName } from '../core/model-provider.ts';
import type { ErrorCode, RagentError } from '../errors.ts';
import { type CallFailure, causeChain, classifyFailure, serviceError } from '../outside-calls.ts';

export interface ModelFailureContext {
  provider: ModelProviderName;
  /** The server's base URL (for the details only). */
  baseUrl: string;
  model: string;
  /** The setting that names the model, e.g. OLLAMA_MODEL. */
  modelVariable: string;
  /** What the call was for, in words: "answering", "embedding". */
  task: string;
  request?: Pick<ChatModelCall, 'tools' | 'jsonSchema'>;
  attempts?: number;
}

interface ProviderWords {
  name: string;
  unreachable: ErrorCode;
  missing: ErrorCode;
  failed: ErrorCode;
  urlVariable: string;
  credentials: string;
  start: string;
  pull: (model: string) => string;
}

const words: Record<ModelProviderName, ProviderWords> = {
  ollama: {
    name: 'Ollama',
    unreachable: 'OLLAMA_UNREACHABLE',
    missing: 'OLLAMA_MODEL_MISSING',
    failed: 'OLLAMA_FAILED',
    urlVariable: 'OLLAMA_BASE_URL',
    credentials: 'OLLAMA_API_KEY or OLLAMA_HEADERS (for a proxy in front of Ollama)',
    start: 'Start it (`ollama serve`)',
    pull: (model) => `Pull it with \`ollama pull ${model}\``,
  },
  openai: {
    name: 'The model server',
    unreachable: 'OPENAI_UNREACHABLE',
    missing: 'OPENAI_MODEL_MISSING',
    failed: 'OPENAI_FAILED',
    urlVariable: 'OPENAI_BASE_URL',
    credentials: 'OPENAI_API_KEY',
    start: 'Start the server',
    pull: () => 'Load it on the server (see its /v1/models)',
  },
};

/** Text of the error and its causes, for spotting what a server said it refused. */
function errorText(error: unknown): string {
  return causeChain(error)
    .map((entry) => (entry instanceof Error ? entry.message : String(entry)))
    .join(' | ');
}

function refusedFeature(
  failure: CallFailure,
  text: string,
  request: ModelFailureContext['request'],
): 'tools' | 'json-schema' | undefined {
  if (failure.kind !== 'rejected' || !request) return undefined;
  const usesTools = (request.tools?.length ?? 0) > 0;
  const usesSchema = request.jsonSchema !== undefined;
  if (usesTools && /tool/i.test(text)) return 'tools';
  if (usesSchema && /response_format|json_schema|json schema|schema|format/i.test(text)) return 'json-schema';
  if (usesTools && !usesSchema) return 'tools';
  if (usesSchema && !usesTools) return 'json-schema';
  return undefined;
}

/** The RagentError for a failed model call (after the retries). */
export function describeModelFailure(error: unknown, context: ModelFailureContext): RagentError {
  const failure = classifyFailure(error);
  const said = words[context.provider];
  const text = errorText(error);
  const { model, modelVariable } = context;
  const tries = context.attempts && context.attempts > 1 ? ` after ${context.attempts} tries` : '';
  const make = (code: ErrorCode, message: string) =>
    serviceError(code, message, {
      service: context.provider,
      url: context.baseUrl,
      failure,
      cause: error,
      extra: { model, task: context.task, ...(context.attempts ? { attempts: context.attempts } : {}) },
    });

  const feature = refusedFeature(failure, text, context.request);
  if (feature === 'tools') {
    return make(
      'MODEL_FEATURE_UNSUPPORTED',
      `${said.name} refused tool calling for the model "${model}" (${failure.reason}). ragent needs a model ` +
        `that can call tools: set ${modelVariable} to one that can` +
        (context.provider === 'openai'
          ? ', and on vLLM start the server with --enable-auto-tool-choice and a --tool-call-parser (llama.cpp: --jinja).'
          : ' (e.g. granite4.1:8b or qwen3).'),
    );
  }
  if (feature === 'json-schema') {
    return make(
      'MODEL_FEATURE_UNSUPPORTED',
      `${said.name} refused JSON-schema output for the model "${model}" (${failure.reason}). ragent needs ` +
        `structured output (${context.provider === 'openai' ? 'response_format json_schema' : 'format'}): use a server ` +
        `and model that support it, or set RAGENT_LLM_PROVIDER to the other provider.`,
    );
  }
  if (failure.kind === 'not-found' || /model .*not found|try pulling|does not exist/i.test(text)) {
    return make(
      said.missing,
      `The model "${model}" is not available on ${context.provider === 'ollama' ? 'Ollama' : 'the model server'}. ` +
        `${said.pull(model)}, or set ${modelVariable} to a model you have.`,
    );
  }
  if (failure.kind === 'unreachable' || failure.kind === 'disconnected') {
    return make(
      said.unreachable,
      `Could not reach ${context.provider === 'ollama' ? 'Ollama' : 'the model server'} (${failure.reason}). ` +
        `${said.start} or fix ${said.urlVariable}, then try again.`,
    );
  }
  if (failure.kind === 'unauthorized') {
    return make(
      'MODEL_AUTH_FAILED',
      `${said.name} refused ragent's credentials (${failure.reason}). Check ${said.credentials}.`,
    );
  }
  if (failure.kind === 'rate-limited') {
    return make(
      'MODEL_RATE_LIMITED',
      `${said.name} is answering too many requests (rate limited${tries}). Try again in a minute; ` +
        'if it keeps happening, lower RAGENT_LLM_CONCURRENCY or raise the limit of your plan.',
    );
  }
  if (failure.kind === 'timeout') {
    return make(
      said.failed,
      `${said.name} did not answer in time while ${context.task} (model "${model}"${tries}). It may be ` +
        'overloaded or still loading the model; try again in a moment.',
    );
  }
  return make(
    said.failed,
    `${said.name} failed while ${context.task} (model "${model}": ${failure.reason}${tries}). Try again in a ` +
      `moment; if it keeps failing, check the ${context.provider === 'ollama' ? 'Ollama' : 'server'} log.`,
  );
}
