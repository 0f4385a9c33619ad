import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, useLoad } from '../api.ts';
import { Badge, Notice } from '../components.tsx';
import { useLive } from '../live.ts';
import type { ApiResponse, Todo } from '../types.ts';

type Status = Todo['status'];
const STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly Status[];
const LABELS: Record<Status, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed' };

/** A board by status: moving a card (drag it, or pick its status) changes the task's status; `todoId` (a search hit) is highlighted. */
export function TodosPage({ todoId }: { todoId?: string }) {
  const [project, setProject] = useState('');
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<string>();
  const [dragging, setDragging] = useState<string>();
  const todos = useLoad(() => api<ApiResponse<'listTodos'>>('GET', `/todos${filter ? `?project=${encodeURIComponent(filter)}` : ''}`).then((r) => r.todos), [filter]);
  // An agent's sync or delete reloads the board (a burst of them once).
  useLive(['todos.synced', 'todo.deleted'], () => todos.reload(), 300);
  const found = !!todoId && !!todos.data?.some((t) => t.id === todoId);
  useEffect(() => {
    if (found) document.querySelector(`[data-todo-id="${todoId}"]`)?.scrollIntoView({ block: 'center' });
  }, [found, todoId]);

  const move = async (t: Todo, status: Status) => {
    if (t.status === status) return;
    setError(undefined);
    try {
      await api('POST', '/todos', { project: t.project, todos: [{ id: t.id, content: t.content, status, expected_version: t.version }] });
    } catch (err) {
      const e = err as ApiError;
      setError(e.status === 412 ? 'This task changed elsewhere; the board shows it as it is now.' : e.message);
    }
    todos.reload();
  };
  const drop = (status: Status) => {
    const t = todos.data?.find((x) => x.id === dragging);
    setDragging(undefined);
    if (t) void move(t, status);
  };
  return (
    <>
      <h1>Todos</h1>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(project);
        }}
      >
        <input placeholder="Project (all when empty)" aria-label="Project" value={project} onInput={(e) => setProject(e.currentTarget.value)} />
        <button type="submit">Filter</button>
      </form>
      <Notice error={todos.error ?? error} />
      {todoId && todos.data && !found && <p class="muted">That task is not on this board (done and cleared, or in another workspace).</p>}
      <div class="board">
        {STATUSES.map((st) => {
          const items = todos.data?.filter((t) => t.status === st) ?? [];
          return (
            <section
              key={st}
              class={`card lane${dragging ? ' drop-target' : ''}`}
              data-status={st}
              aria-label={LABELS[st]}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                drop(st);
              }}
            >
              <h2>
                <Badge value={st} /> <span class="muted">{items.length}</span>
              </h2>
              <ul class="list">
                {items.map((t) => (
                  <li
                    key={t.id}
                    class={`todo-card${t.id === todoId ? ' highlighted' : ''}`}
                    aria-current={t.id === todoId ? 'true' : undefined}
                    data-todo-id={t.id}
                    draggable
                    onDragStart={() => setDragging(t.id)}
                    onDragEnd={() => setDragging(undefined)}
                  >
                    <span>{t.content}</span>
                    <span class="muted small-text">
                      {t.project} · <Badge value={t.priority} />
                    </span>
                    <select aria-label={`Status of ${t.content}`} value={t.status} onChange={(e) => void move(t, e.currentTarget.value as Status)}>
                      {STATUSES.map((s) => (
                        <option key={s} value={s}>
                          {LABELS[s]}
                        </option>
                      ))}
                    </select>
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
