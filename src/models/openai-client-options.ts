/** How both OpenAI-compatible clients reach the server: base URL ending in /v1, and a key even when none is needed. */
import type { Config } from '../config.ts';

/** Servers without authentication ignore the key, but the OpenAI client refuses to start without one. */
export const placeholderApiKey = 'not-needed';

export function openAiClientOptions(config: Config): {
  apiKey: string;
  configuration: { baseURL: string };
} {
  return {
    apiKey: config.openai.apiKey ?? placeholderApiKey,
    configuration: { baseURL: config.openai.baseUrl },
  };
}
