import { ConfigError, type Config } from '../../config.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAiProvider } from './openai.js';
import type { AiProvider } from './provider.js';

export type { AiProvider } from './provider.js';

/** What the 503 says when a spark needs a model and none is configured. */
export const PROVIDER_HOWTO =
  'No AI provider is configured. Set AI_PROVIDER=openai with AI_BASE_URL, AI_API_KEY and AI_MODEL ' +
  '(OpenAI, or any OpenAI-compatible server such as Ollama: AI_BASE_URL=http://127.0.0.1:11434/v1 AI_MODEL=llama3.1), ' +
  'or AI_PROVIDER=anthropic with ANTHROPIC_API_KEY and AI_MODEL, then restart the service.';

/**
 * Picks the provider named by AI_PROVIDER, or none. A half-configured provider
 * stops the service at start (ConfigError) rather than failing on the first run.
 */
export function createProvider(ai: Config['ai']): AiProvider | undefined {
  if (!ai.provider) return undefined;
  if (!ai.model) {
    const example = ai.provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini, or llama3.1 for Ollama';
    throw new ConfigError(`Invalid configuration:\n  AI_MODEL: AI_PROVIDER=${ai.provider} needs AI_MODEL (e.g. ${example})`);
  }
  switch (ai.provider) {
    case 'openai':
      return createOpenAiProvider({ baseUrl: ai.baseUrl, apiKey: ai.apiKey, model: ai.model, timeoutMs: ai.timeoutMs });
    case 'anthropic':
      if (!ai.apiKey) throw new ConfigError('Invalid configuration:\n  ANTHROPIC_API_KEY: AI_PROVIDER=anthropic needs ANTHROPIC_API_KEY (or AI_API_KEY)');
      return createAnthropicProvider({ baseUrl: ai.baseUrl, apiKey: ai.apiKey, model: ai.model, timeoutMs: ai.timeoutMs });
  }
}
