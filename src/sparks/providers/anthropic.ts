import type Anthropic from '@anthropic-ai/sdk';
import { ProviderError, requireText, usageOf, type AiProvider } from './provider.js';

/** Upper bound on the answer's length; Messages requires one. 4096 fits every current Claude model. */
export const ANTHROPIC_MAX_TOKENS = 4096;

/** The Anthropic Messages API (POST {base}/v1/messages) through the official client. */
export function createAnthropicProvider(opts: { baseUrl?: string; apiKey: string; model: string; timeoutMs: number }): AiProvider {
  // The client is loaded on the first run, not at start: importing it costs ~300 ms and memory.
  let client: Promise<Anthropic> | undefined;
  const load = async () => {
    const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
    return new AnthropicClient({
      apiKey: opts.apiKey,
      // The client appends /v1/messages itself; accept a base given with /v1 too.
      baseURL: opts.baseUrl?.replace(/\/v1\/?$/, '').replace(/\/$/, ''),
      maxRetries: 0,
      timeout: opts.timeoutMs + 1000,
    });
  };

  return {
    name: 'anthropic',
    model: opts.model,
    async prepare() {
      await (client ??= load());
    },
    async complete({ system, user, signal, onUsage }) {
      const res = (await (await (client ??= load())).messages.create({ model: opts.model, max_tokens: ANTHROPIC_MAX_TOKENS, system, messages: [{ role: 'user', content: user }] }, { signal })) as unknown;
      const usage = (res as { usage?: { input_tokens?: unknown; output_tokens?: unknown } } | null)?.usage;
      const reported = usageOf(usage?.input_tokens, usage?.output_tokens);
      if (reported) onUsage?.(reported);
      const blocks = (res as { content?: unknown } | null)?.content;
      if (!Array.isArray(blocks)) throw new ProviderError('returned no content blocks');
      const text = blocks
        .filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text)
        .join('');
      return requireText(text, 'no text block in content');
    },
  };
}
