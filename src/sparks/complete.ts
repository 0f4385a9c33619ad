import { AppError } from '../errors.js';
import { PROVIDER_HOWTO, type AiProvider } from './providers/index.js';
import { ProviderError, type CompletionRequest } from './providers/provider.js';

const MAX_DETAIL = 300;

/** The deepest `code` (ECONNREFUSED, ENOTFOUND, ...) in an error's cause chain. */
function causeCode(err: unknown): string | undefined {
  let code: string | undefined;
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') code = e.code;
  }
  return code;
}

function describeFailure(err: unknown): string {
  if (err instanceof ProviderError) return err.message;
  const e = err as { status?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const detail = message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}...` : message;
  if (typeof e?.status === 'number') return `answered HTTP ${e.status}: ${detail}`;
  const code = causeCode(err);
  return code ? `${detail} (${code})` : detail;
}

/**
 * One model call with the AI_TIMEOUT_MS limit. No provider -> 503 saying how
 * to configure one; any failure, timeout or unusable answer -> 502.
 */
export async function completeWith(
  provider: AiProvider | undefined,
  timeoutMs: number,
  req: Omit<CompletionRequest, 'signal'>,
): Promise<string> {
  if (!provider) throw new AppError('provider_not_configured', PROVIDER_HOWTO);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await provider.complete({ ...req, signal });
  } catch (err) {
    const who = `AI provider ${provider.name} (model ${provider.model})`;
    if (signal.aborted) throw new AppError('provider_error', `${who} did not answer within ${timeoutMs} ms (AI_TIMEOUT_MS)`);
    throw new AppError('provider_error', `${who} failed: ${describeFailure(err)}`);
  }
}
