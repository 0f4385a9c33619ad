import { AppError } from '../errors.js';
import { PROVIDER_HOWTO, type AiProvider } from './providers/index.js';
import { ProviderError, type CompletionRequest } from './providers/provider.js';

/** The deepest `code` (ECONNREFUSED, ENOTFOUND, ...) in an error's cause chain. */
function causeCode(err: unknown): string | undefined {
  let code: string | undefined;
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(e.code)) code = e.code;
  }
  return code;
}

/**
 * What the client is told: our own words and the provider's status or an error code only. The
 * provider's text (and a network error's message) can echo keys, internal host names and addresses.
 */
function describeFailure(err: unknown): string {
  if (err instanceof ProviderError) return err.message;
  const status = (err as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return `answered HTTP ${status}`;
  if (err instanceof SyntaxError) return 'returned a body that is not valid JSON';
  const code = causeCode(err);
  return code ? `could not be reached (${code})` : 'the request failed';
}

/**
 * One model call with the AI_TIMEOUT_MS limit. No provider -> 503 saying how
 * to configure one; any failure, timeout or unusable answer -> 502.
 */
export async function completeWith(provider: AiProvider | undefined, timeoutMs: number, req: Omit<CompletionRequest, 'signal'>, onFailure?: (err: unknown, message: string) => void): Promise<string> {
  if (!provider) throw new AppError('provider_not_configured', PROVIDER_HOWTO);
  let signal: AbortSignal | undefined;
  try {
    await provider.prepare?.();
    signal = AbortSignal.timeout(timeoutMs);
    return await provider.complete({ ...req, signal });
  } catch (err) {
    const who = `AI provider ${provider.name} (model ${provider.model})`;
    const message = signal?.aborted ? `${who} did not answer within ${timeoutMs} ms (AI_TIMEOUT_MS)` : `${who} failed: ${describeFailure(err)}`;
    // The full error, with the provider's answer, stays in the server's log.
    onFailure?.(err, message);
    throw new AppError('provider_error', message);
  }
}
