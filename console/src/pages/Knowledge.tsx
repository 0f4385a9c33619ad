import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { CopyButton, Notice } from '../components.tsx';
import { highlight } from '../highlight.ts';
import { useLive } from '../live.ts';
import { Suggestions } from '../suggestions.tsx';
import type { ApiResponse, KnowledgeEntry } from '../types.ts';

function Entry({ item, open = false }: { item: KnowledgeEntry; open?: boolean }) {
  return (
    <details class={`card knowledge${open ? ' highlighted' : ''}`} open={open} data-knowledge-id={item.id}>
      <summary>
        <strong>{item.title}</strong> {item.language && <code>{item.language}</code>} <span class="muted small-text">{when(item.createdAt)}</span>
      </summary>
      {'error' in item && item.error && (
        <p>
          <strong>Error:</strong> <code>{item.error}</code>
        </p>
      )}
      {'description' in item && item.description && <p>{item.description}</p>}
      <div class="code-block">
        <CopyButton text={item.content ?? ''} label="Copy code" />
        <pre>
          <code class="hljs" dangerouslySetInnerHTML={{ __html: highlight(item.content ?? '', item.language).html }} />
        </pre>
      </div>
      {!!item.tags?.length && <p class="muted small-text">{item.tags.join(', ')}</p>}
    </details>
  );
}

/** One entry opened from a link or a search hit (`#/knowledge/<sol_ or snp_ id>`), in whichever workspace it is. */
function OneEntry({ id }: { id: string }) {
  const entry = useLoad(() => api<ApiResponse<'getKnowledge'>>('GET', path`/knowledge/${id}`).then((r) => r.solution ?? r.snippet), [id]);
  return (
    <>
      <Notice error={entry.error} />
      {entry.data && <Entry item={entry.data} open />}
    </>
  );
}

export function KnowledgePage({ entryId }: { entryId?: string }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const data = useLoad(() => api<ApiResponse<'listKnowledge'>>('GET', `/knowledge?limit=100${query ? `&q=${encodeURIComponent(query)}` : ''}`), [query]);
  useLive(['knowledge.saved'], () => data.reload(), 300);
  return (
    <>
      <h1>Knowledge</h1>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(q);
        }}
      >
        <input type="search" aria-label="Search knowledge" placeholder="Search solutions and snippets" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      {entryId && <OneEntry id={entryId} />}
      <Suggestions onAccepted={data.reload} />
      <Notice error={data.error} />
      <h2>Solutions</h2>
      {data.data?.solutions?.length === 0 && <p class="muted">None.</p>}
      {data.data?.solutions?.map((s) => (
        <Entry key={s.id} item={s} />
      ))}
      <h2>Snippets</h2>
      {data.data?.snippets?.length === 0 && <p class="muted">None.</p>}
      {data.data?.snippets?.map((s) => (
        <Entry key={s.id} item={s} />
      ))}
    </>
  );
}
