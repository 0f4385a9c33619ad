import { useState } from 'preact/hooks';
import { api, useLoad } from '../api.ts';
import { Badge, Notice } from '../components.tsx';

interface Todo { id: string; content: string; status: 'pending' | 'in_progress' | 'completed'; project: string; priority: string; createdAt: number }
const STATUSES = ['pending', 'in_progress', 'completed'] as const;

export function TodosPage() {
  const [project, setProject] = useState('');
  const [filter, setFilter] = useState('');
  const todos = useLoad(() => api<{ todos: Todo[] }>('GET', `/todos${filter ? `?project=${encodeURIComponent(filter)}` : ''}`).then((r) => r.todos), [filter]);
  return (
    <>
      <h1>Todos</h1>
      <form class="row" onSubmit={(e) => { e.preventDefault(); setFilter(project); }}>
        <input placeholder="Project (all when empty)" value={project} onInput={(e) => setProject(e.currentTarget.value)} />
        <button type="submit">Filter</button>
      </form>
      <Notice error={todos.error} />
      <div class="board">
        {STATUSES.map((st) => {
          const items = todos.data?.filter((t) => t.status === st) ?? [];
          return (
            <section key={st} class="card lane" data-status={st}>
              <h2><Badge value={st} /> <span class="muted">{items.length}</span></h2>
              <ul class="list">
                {items.map((t) => (
                  <li key={t.id}>
                    <span>{t.content}</span>
                    <span class="muted small-text">{t.project} · <Badge value={t.priority} /></span>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </>
  );
}
