import type { Config } from '../config.ts';
import { type CheckResult, displayUrl } from './check-result.ts';
import { probe } from './http-probe.ts';

export const ollamaDownloadUrl = 'https://ollama.com/download';

/**
 * Ollama answers `/api/version` (with OLLAMA_HEADERS / OLLAMA_API_KEY), `/api/tags` lists the models
 * it serves here (chat and/or embeddings), and the embedding model embeds a test text (its dimension).
 */
export async function checkOllama(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const baseUrl = config.ollama.baseUrl;
  const headers = config.ollama.headers;
  const shownUrl = displayUrl(baseUrl);
  const required = requiredModels(config);
  const pullSteps = required.map(
    (model) => `Pull the ${model.title.toLowerCase()}: ollama pull ${model.name}`,
  );

  const version = await probe(`${baseUrl}/api/version`, { timeoutMs, headers });
  if (version.kind === 'unreachable') {
    return [
      {
        title: 'Ollama',
        status: 'fail',
        detail: `not reachable at ${shownUrl} (${version.reason})`,
        fix: [
          `Install Ollama: ${ollamaDownloadUrl}`,
          'Start it: open the Ollama app, or run: ollama serve',
          ...pullSteps,
          `If Ollama runs elsewhere, set OLLAMA_BASE_URL (now ${shownUrl}).`,
        ],
      },
    ];
  }
  if (version.status === 401 || version.status === 403) {
    return [
      {
        title: 'Ollama',
        status: 'fail',
        detail: `${shownUrl} refused the request (HTTP ${version.status}); a proxy in front of Ollama wants credentials`,
        fix: ['Set OLLAMA_API_KEY (sent as a bearer token) or OLLAMA_HEADERS (JSON) for the proxy.'],
      },
    ];
  }
  const versionNumber = readString(version.body, 'version');
  if (version.status !== 200 || versionNumber === undefined) {
    return [
      {
        title: 'Ollama',
        status: 'fail',
        detail: `${shownUrl} answered HTTP ${version.status}, which is not Ollama`,
        fix: [`Set OLLAMA_BASE_URL to your Ollama server (default http://127.0.0.1:11434).`],
      },
    ];
  }
  const results: CheckResult[] = [
    { title: 'Ollama', status: 'pass', detail: `${versionNumber} at ${shownUrl}` },
  ];

  const tags = await probe(`${baseUrl}/api/tags`, { timeoutMs, headers });
  const pulled = tags.kind === 'response' && tags.status === 200 ? listModelNames(tags.body) : undefined;
  if (!pulled) {
    const why = tags.kind === 'unreachable' ? tags.reason : `HTTP ${tags.status}`;
    results.push({
      title: 'Models',
      status: 'fail',
      detail: `could not list the pulled models (${why})`,
      fix: ['Check that Ollama is healthy (ollama list), then run ragent doctor again.', ...pullSteps],
    });
    return results;
  }
  const have = new Set(pulled.map(normaliseModelName));
  for (const model of required) {
    const isPulled = have.has(normaliseModelName(model.name));
    if (isPulled && model.variable === 'OLLAMA_EMBED_MODEL') {
      results.push(await checkEmbedding(config, timeoutMs));
      continue;
    }
    if (isPulled && model.variable === 'OLLAMA_MODEL') {
      results.push(await checkChatModel(config, timeoutMs));
      continue;
    }
    results.push(
      isPulled
        ? { title: model.title, status: 'pass', detail: `${model.name} is pulled` }
        : {
            title: model.title,
            status: 'fail',
            detail: `${model.name} is not pulled`,
            fix: [
              `Pull it: ollama pull ${model.name}`,
              `Or set ${model.variable} to a model you have (ollama list).`,
            ],
          },
    );
  }
  if (config.embeddings === 'none' && config.llmProvider === 'ollama') {
    results.push({
      title: 'Embedding model',
      status: 'skip',
      detail: 'not used (RAGENT_EMBEDDINGS=none: BM25 keyword search only)',
    });
  }
  return results;
}

/** Ollama ≥ 0.7 lists a model's capabilities (`/api/show`): the chat model must call tools. */
async function checkChatModel(config: Config, timeoutMs: number): Promise<CheckResult> {
  const model = config.ollama.model;
  const pulled: CheckResult = { title: 'Chat model', status: 'pass', detail: `${model} is pulled` };
  const outcome = await probe(`${config.ollama.baseUrl}/api/show`, {
    timeoutMs,
    headers: config.ollama.headers,
    body: { model },
  });
  const capabilities =
    outcome.kind === 'response' && outcome.status === 200
      ? (outcome.body as { capabilities?: unknown } | undefined)?.capabilities
      : undefined;
  if (!Array.isArray(capabilities)) return pulled;
  if (capabilities.includes('tools')) return { ...pulled, detail: `${model} is pulled and calls tools` };
  return {
    title: 'Chat model',
    status: 'fail',
    detail: `${model} is pulled but cannot call tools (capabilities: ${capabilities.join(', ') || 'none'})`,
    fix: ['ragent needs a chat model with tool calling: set OLLAMA_MODEL to one, e.g. granite4.1:8b.'],
  };
}

/** One embed call: the model works and tells its dimension. */
async function checkEmbedding(config: Config, timeoutMs: number): Promise<CheckResult> {
  const model = config.ollama.embedModel;
  const outcome = await probe(`${config.ollama.baseUrl}/api/embed`, {
    timeoutMs,
    headers: config.ollama.headers,
    body: { model, input: ['ragent doctor'] },
  });
  const embeddings =
    outcome.kind === 'response' && outcome.status === 200
      ? (outcome.body as { embeddings?: unknown } | undefined)?.embeddings
      : undefined;
  const first = Array.isArray(embeddings) ? embeddings[0] : undefined;
  if (!Array.isArray(first) || first.length === 0) {
    const why = outcome.kind === 'unreachable' ? outcome.reason : `HTTP ${outcome.status}`;
    return {
      title: 'Embedding model',
      status: 'fail',
      detail: `${model} is pulled but did not embed a test text (${why})`,
      fix: [
        `Check that it is an embedding model (ollama show ${model}) and the Ollama log.`,
        'Or set OLLAMA_EMBED_MODEL to another embedding model, or RAGENT_EMBEDDINGS=none for BM25 only.',
      ],
    };
  }
  return {
    title: 'Embedding model',
    status: 'pass',
    detail: `${model} is pulled (${first.length} dimensions)`,
  };
}

function requiredModels(config: Config) {
  const models =
    config.llmProvider === 'ollama'
      ? [{ title: 'Chat model', name: config.ollama.model, variable: 'OLLAMA_MODEL' }]
      : [];
  if (config.embeddings === 'ollama') {
    models.push({ title: 'Embedding model', name: config.ollama.embedModel, variable: 'OLLAMA_EMBED_MODEL' });
  }
  return models;
}

/** `qwen3` and `qwen3:latest` are the same model; so are `hf.co/a/b` and `hf.co/a/b:latest`. */
export function normaliseModelName(name: string): string {
  const trimmed = name.trim().toLowerCase();
  const lastSegment = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? trimmed : `${trimmed}:latest`;
}

function listModelNames(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const models = (body as { models?: unknown }).models;
  if (!Array.isArray(models)) return undefined;
  return models.flatMap((model) => {
    const names = [readString(model, 'name'), readString(model, 'model')];
    return names.filter((name): name is string => name !== undefined);
  });
}

function readString(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}
