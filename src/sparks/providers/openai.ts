import type OpenAI from 'openai';
import { ProviderError, requireText, usageOf, type AiProvider } from './provider.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The OpenAI-compatible chat-completions protocol (POST {base}/chat/completions),
 * spoken by OpenAI, Ollama, vLLM, llama.cpp server and LM Studio. Uses the
 * official `openai` client (v6: the last major that supports Node 20).
 */
export function createOpenAiProvider(opts: { baseUrl?: string; apiKey?: string; model: string; timeoutMs: number }): AiProvider {
  // The client is loaded on the first run, not at start: importing it costs ~130 ms and memory.
  let client: Promise<OpenAI> | undefined;
  const load = async () => {
    const { default: OpenAIClient } = await import('openai');
    return new OpenAIClient({
      baseURL: opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
      // Local servers (Ollama, llama.cpp) need no key: the client insists on one, so we give a
      // placeholder and drop the Authorization header instead of sending it.
      apiKey: opts.apiKey || 'unused',
      defaultHeaders: opts.apiKey ? undefined : { Authorization: null },
      // One attempt per run; our own AbortSignal enforces AI_TIMEOUT_MS, the client's timeout is a backstop.
      maxRetries: 0,
      timeout: opts.timeoutMs + 1000,
    });
  };

  return {
    name: 'openai',
    model: opts.model,
    async prepare() {
      await (client ??= load());
    },
    async complete({ system, user, signal, onUsage }) {
      const res = (await (
        await (client ??= load())
      ).chat.completions.create(
        {
          model: opts.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal },
      )) as unknown;
      // Compatible servers vary; check the shape instead of trusting the type.
      const usage = (res as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)?.usage;
      const reported = usageOf(usage?.prompt_tokens, usage?.completion_tokens);
      if (reported) onUsage?.(reported);
      const choices = (res as { choices?: unknown } | null)?.choices;
      if (!Array.isArray(choices) || choices.length === 0) throw new ProviderError('returned no choices');
      const message = (choices[0] as { message?: { content?: unknown } } | null)?.message;
      return requireText(message?.content, 'choices[0].message.content is empty');
    },
  };
}
