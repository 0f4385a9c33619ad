/**
 * The one interface every AI provider implements. Adding a provider means one
 * new file exporting a factory that returns this, plus one line in index.ts.
 */
export interface CompletionRequest {
  /** Instructions: what the spark does and the rules of the answer. */
  system: string;
  /** The user turn: the content (or a user spark's filled template). */
  user: string;
  /** Aborts the call; the caller sets it from AI_TIMEOUT_MS. */
  signal: AbortSignal;
  /** Told the tokens the provider reports for the call (distillation records them); not called when it reports none. */
  onUsage?: (usage: TokenUsage) => void;
}

export interface TokenUsage {
  input: number;
  output: number;
}

/** The provider's reported usage, when both counts are numbers. */
export function usageOf(input: unknown, output: unknown): TokenUsage | undefined {
  return typeof input === 'number' && typeof output === 'number' ? { input, output } : undefined;
}

export interface AiProvider {
  /** "openai" or "anthropic"; shown in error messages. */
  readonly name: string;
  readonly model: string;
  /** Loads what the first call needs (the client library), so that AI_TIMEOUT_MS times the provider, not our start-up. */
  prepare?(): Promise<void>;
  /** The model's answer as plain text. Throws ProviderError (or the client's own error) on any failure. */
  complete(req: CompletionRequest): Promise<string>;
}

/** A provider answered, but not with something we can use (no choices, no text, wrong shape). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Providers may only return non-empty text. */
export function requireText(text: unknown, what: string): string {
  if (typeof text !== 'string' || text.trim() === '') throw new ProviderError(`returned no text (${what})`);
  return text;
}
