/**
 * The OpenAI-compatible model server, when RAGENT_LLM_PROVIDER or RAGENT_EMBEDDINGS names it: it
 * answers `GET /v1/models` (with OPENAI_API_KEY), lists the configured models (where it lists any),
 * accepts tool calling and JSON-schema output for the chat model (a one-token call each: servers that
 * lack them refuse at once with 400), and tells the embedding dimension (one embed call).
 */
import type { Config } from '../config.ts';
import { type CheckResult, displayUrl } from './check-result.ts';
import { type ProbeOutcome, probe } from './http-probe.ts';

export async function checkOpenAi(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const settings = config.openai;
  const shownUrl = displayUrl(settings.baseUrl);
  const headers: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  const listing = await probe(`${settings.baseUrl}/models`, { timeoutMs, headers });
  if (listing.kind === 'unreachable') {
    return [
      {
        title: 'Model server',
        status: 'fail',
        detail: `not reachable at ${shownUrl} (${listing.reason})`,
        fix: [
          'Start your OpenAI-compatible server (vLLM, llama.cpp server, LM Studio …).',
          `Set OPENAI_BASE_URL to its API address ending in /v1 (now ${shownUrl}).`,
          'Or set RAGENT_LLM_PROVIDER=ollama and RAGENT_EMBEDDINGS=ollama to use Ollama.',
        ],
      },
    ];
  }
  if (listing.status === 401 || listing.status === 403) {
    return [
      {
        title: 'Model server',
        status: 'fail',
        detail: `${shownUrl} refused the API key (HTTP ${listing.status})`,
        fix: [settings.apiKey ? 'Check OPENAI_API_KEY.' : 'This server needs a key: set OPENAI_API_KEY.'],
      },
    ];
  }
  const listed = listing.status === 200 ? modelIds(listing.body) : undefined;
  const results: CheckResult[] = [
    {
      title: 'Model server',
      status: 'pass',
      detail: `${shownUrl} (OpenAI-compatible${listed ? `, ${listed.length} models listed` : ', lists no models'})`,
    },
  ];
  const wanted = [
    ...(config.llmProvider === 'openai'
      ? [{ title: 'Chat model', name: settings.model ?? '', variable: 'OPENAI_MODEL' }]
      : []),
    ...(config.embeddings === 'openai'
      ? [{ title: 'Embedding model', name: settings.embedModel ?? '', variable: 'OPENAI_EMBED_MODEL' }]
      : []),
  ];
  for (const model of wanted) {
    if (listed && !listed.includes(model.name)) {
      results.push({
        title: model.title,
        status: 'fail',
        detail: `${model.name} is not among the models ${shownUrl} lists`,
        fix: [
          `Set ${model.variable} to one of: ${listed.slice(0, 10).join(', ') || '(none listed)'}.`,
          'Or load the model on the server.',
        ],
      });
      continue;
    }
    results.push(
      model.variable === 'OPENAI_MODEL'
        ? await checkChatFeatures(config, model.name, headers, timeoutMs)
        : await checkEmbedding(config, model.name, headers, timeoutMs),
    );
  }
  return results;
}

async function checkChatFeatures(
  config: Config,
  model: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<CheckResult> {
  const url = `${config.openai.baseUrl}/chat/completions`;
  const base = { model, messages: [{ role: 'user', content: 'Reply with {"ok": true}.' }], max_tokens: 1 };
  const tools = await probe(url, {
    timeoutMs,
    headers,
    body: {
      ...base,
      tools: [
        {
          type: 'function',
          function: { name: 'ping', description: 'A check.', parameters: { type: 'object', properties: {} } },
        },
      ],
    },
  });
  const schema = await probe(url, {
    timeoutMs,
    headers,
    body: {
      ...base,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'doctor',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          strict: false,
        },
      },
    },
  });
  const refused = [
    ...(isRefusal(tools) ? [`tool calling (${summary(tools)})`] : []),
    ...(isRefusal(schema) ? [`JSON-schema output (${summary(schema)})`] : []),
  ];
  if (refused.length > 0) {
    return {
      title: 'Chat model',
      status: 'fail',
      detail: `${model} was refused ${refused.join(' and ')}`,
      fix: [
        'ragent needs tool calling and response_format json_schema from the chat model.',
        'vLLM: start it with --enable-auto-tool-choice --tool-call-parser <parser for your model>; llama.cpp server: --jinja.',
        'Or set OPENAI_MODEL to a model that supports both, or RAGENT_LLM_PROVIDER=ollama.',
      ],
    };
  }
  const unsure = [tools, schema].find((outcome) => !(outcome.kind === 'response' && outcome.status === 200));
  if (unsure) {
    return {
      title: 'Chat model',
      status: 'warn',
      detail: `${model}: could not confirm tool calling and JSON-schema output (${summary(unsure)})`,
      fix: ['Check the server log; if it is still loading the model, run ragent doctor again in a moment.'],
    };
  }
  return { title: 'Chat model', status: 'pass', detail: `${model} accepts tools and JSON-schema output` };
}

async function checkEmbedding(
  config: Config,
  model: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<CheckResult> {
  const outcome = await probe(`${config.openai.baseUrl}/embeddings`, {
    timeoutMs,
    headers,
    body: { model, input: ['ragent doctor'], encoding_format: 'float' },
  });
  const dimension =
    outcome.kind === 'response' && outcome.status === 200 ? embeddingLength(outcome.body) : undefined;
  if (dimension === undefined) {
    return {
      title: 'Embedding model',
      status: 'fail',
      detail: `${model} did not embed a test text (${summary(outcome)})`,
      fix: [
        'Set OPENAI_EMBED_MODEL to an embedding model the server serves (vLLM: --task embed).',
        'Or set RAGENT_EMBEDDINGS=ollama, or none for BM25-only search.',
      ],
    };
  }
  return { title: 'Embedding model', status: 'pass', detail: `${model} (${dimension} dimensions)` };
}

function isRefusal(outcome: ProbeOutcome): boolean {
  return (
    outcome.kind === 'response' &&
    (outcome.status === 400 || outcome.status === 422 || outcome.status === 501)
  );
}

function summary(outcome: ProbeOutcome): string {
  if (outcome.kind === 'unreachable') return outcome.reason;
  const message = errorMessage(outcome.body);
  return message ? `HTTP ${outcome.status}: ${message}` : `HTTP ${outcome.status}`;
}

function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  const message = typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  return message.length > 160 ? `${message.slice(0, 160)}…` : message;
}

function modelIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((entry) => {
    const id = (entry as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}

function embeddingLength(body: unknown): number | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  const first = Array.isArray(data) ? (data[0] as { embedding?: unknown } | undefined) : undefined;
  return Array.isArray(first?.embedding) && first.embedding.length > 0 ? first.embedding.length : undefined;
}
