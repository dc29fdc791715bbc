/**
 * What a failed model-server call tells the user, for both providers: each failure kind gets its own
 * error code and a message that names the setting to fix — never the server's address, which goes
 * into the error's details for the log.
 */
import type { ChatModelCall, ModelProviderName } from '../core/model-provider.ts';
import { errorMessages } from '../error-messages-en.ts';
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

/** Each provider's codes; the sentences are the error catalogue's. */
const providerErrors = {
  ollama: {
    unreachable: (reason: string) =>
      serviceFailure('OLLAMA_UNREACHABLE', errorMessages.OLLAMA_UNREACHABLE({ reason })),
    missing: (model: string, modelVariable: string) =>
      serviceFailure('OLLAMA_MODEL_MISSING', errorMessages.OLLAMA_MODEL_MISSING({ model, modelVariable })),
    timeout: (facts: FailedFacts) =>
      serviceFailure('OLLAMA_FAILED', errorMessages.OLLAMA_FAILED.timeout(facts)),
    failed: (facts: FailedFacts & { reason: string }) =>
      serviceFailure('OLLAMA_FAILED', errorMessages.OLLAMA_FAILED.failed(facts)),
  },
  openai: {
    unreachable: (reason: string) =>
      serviceFailure('OPENAI_UNREACHABLE', errorMessages.OPENAI_UNREACHABLE({ reason })),
    missing: (model: string, modelVariable: string) =>
      serviceFailure('OPENAI_MODEL_MISSING', errorMessages.OPENAI_MODEL_MISSING({ model, modelVariable })),
    timeout: (facts: FailedFacts) =>
      serviceFailure('OPENAI_FAILED', errorMessages.OPENAI_FAILED.timeout(facts)),
    failed: (facts: FailedFacts & { reason: string }) =>
      serviceFailure('OPENAI_FAILED', errorMessages.OPENAI_FAILED.failed(facts)),
  },
} satisfies Record<ModelProviderName, unknown>;

interface FailedFacts {
  task: string;
  model: string;
  attempts: number | undefined;
}

/** A code and its sentence, made into the RagentError by describeModelFailure. */
function serviceFailure(code: ErrorCode, message: string) {
  return { code, message };
}

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
  const text = errorText(error);
  const { model, modelVariable, provider, attempts } = context;
  const errors = providerErrors[provider];
  const make = ({ code, message }: { code: ErrorCode; message: string }) =>
    serviceError(code, message, {
      service: provider,
      url: context.baseUrl,
      failure,
      cause: error,
      extra: { model, task: context.task, ...(attempts ? { attempts } : {}) },
    });
  const reason = failure.reason;

  const feature = refusedFeature(failure, text, context.request);
  if (feature === 'tools') {
    return make(
      serviceFailure(
        'MODEL_FEATURE_UNSUPPORTED',
        errorMessages.MODEL_FEATURE_UNSUPPORTED.tools({ provider, model, reason, modelVariable }),
      ),
    );
  }
  if (feature === 'json-schema') {
    return make(
      serviceFailure(
        'MODEL_FEATURE_UNSUPPORTED',
        errorMessages.MODEL_FEATURE_UNSUPPORTED.jsonSchema({ provider, model, reason }),
      ),
    );
  }
  if (failure.kind === 'not-found' || /model .*not found|try pulling|does not exist/i.test(text)) {
    return make(errors.missing(model, modelVariable));
  }
  if (failure.kind === 'unreachable' || failure.kind === 'disconnected')
    return make(errors.unreachable(reason));
  if (failure.kind === 'unauthorized') {
    return make(serviceFailure('MODEL_AUTH_FAILED', errorMessages.MODEL_AUTH_FAILED({ provider, reason })));
  }
  if (failure.kind === 'rate-limited') {
    return make(
      serviceFailure('MODEL_RATE_LIMITED', errorMessages.MODEL_RATE_LIMITED({ provider, attempts })),
    );
  }
  if (failure.kind === 'timeout') return make(errors.timeout({ task: context.task, model, attempts }));
  return make(errors.failed({ task: context.task, model, reason, attempts }));
}
