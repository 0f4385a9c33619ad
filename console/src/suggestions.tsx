import { useState } from 'preact/hooks';
import { ApiError, api, path, useLoad, when } from './api.ts';
import { Notice } from './components.tsx';
import type { ApiResponse, Suggestion } from './types.ts';

/** undefined: the server has no review queue (distillation not there): the section hides itself. */
async function pending(): Promise<Suggestion[] | undefined> {
  try {
    return (await api<ApiResponse<'listKnowledgeSuggestions'>>('GET', '/knowledge/suggestions')).suggestions;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/**
 * The review queue: knowledge entries (error -> fix) suggested from sessions by distillation wait here
 * until someone accepts one (it becomes a solution) or dismisses it. All of it is text from a model
 * reading a session, so it is shown as text only.
 */
export function Suggestions({ onAccepted }: { onAccepted: () => void }) {
  const list = useLoad(pending, []);
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (s: Suggestion, accept: boolean) => {
    setBusy(s.id);
    setError(undefined);
    try {
      if (accept) await api('POST', path`/knowledge/suggestions/${s.id}/accept`);
      else await api('DELETE', path`/knowledge/suggestions/${s.id}`);
      if (accept) onAccepted();
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(undefined);
    list.reload();
  };
  if (list.data === undefined && !list.error) return null;
  const items = list.data ?? [];
  return (
    <section aria-labelledby="suggestions-heading" data-testid="suggestions">
      <h2 id="suggestions-heading">
        Suggestions <span class="muted small-text">{items.length} to review</span>
      </h2>
      <Notice error={list.error ?? error} />
      {items.length === 0 && !list.error && <p class="muted">Nothing to review: suggestions distilled from sessions wait here until accepted.</p>}
      {items.map((s) => (
        <article key={s.id} class="card suggestion" data-suggestion-id={s.id}>
          <strong>{s.title}</strong>{' '}
          <span class="muted small-text">
            from <a href={path`#/sessions/${s.session_id}`}>a session</a> · {when(s.created_at)}
          </span>
          {s.error && (
            <p>
              <strong>Error:</strong> <code>{s.error}</code>
            </p>
          )}
          <p class="pre">{s.fix}</p>
          <div class="row">
            <button type="button" class="small" disabled={busy === s.id} onClick={() => act(s, true)} aria-label={`Accept ${s.title}`}>
              Accept
            </button>
            <button type="button" class="small ghost" disabled={busy === s.id} onClick={() => act(s, false)} aria-label={`Dismiss ${s.title}`}>
              Dismiss
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
