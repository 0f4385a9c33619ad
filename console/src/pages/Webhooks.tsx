import { useState } from 'preact/hooks';
import { api, path, useLoad, when } from '../api.ts';
import { Badge, Confirm, Notice, ShownOnce } from '../components.tsx';
import { EVENT_NAMES } from '../events.ts';
import type { ApiResponse, Me, Webhook, WebhookDelivery } from '../types.ts';

function Deliveries({ hook, version }: { hook: Webhook; version: number }) {
  const list = useLoad(() => api<ApiResponse<'listWebhookDeliveries'>>('GET', path`/webhooks/${hook.id}/deliveries?limit=20`), [hook.id, version]);
  const [error, setError] = useState<string>();
  const redeliver = async (d: WebhookDelivery) => {
    try {
      await api('POST', path`/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
      list.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="deliveries">
      <div class="row">
        <h3>Delivery log</h3>
        <button type="button" class="small ghost" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <Notice error={error ?? list.error} />
      {list.data?.deliveries.length === 0 && <p class="muted">No deliveries yet.</p>}
      {list.data?.deliveries.map((d) => (
        <details key={d.id} class="delivery" data-delivery-id={d.id}>
          <summary>
            <code>{d.event}</code> <Badge value={d.status} />{' '}
            <span class="muted">
              {d.attempt_count} attempt(s) · {when(d.created_at)}
            </span>
          </summary>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Attempted</th>
                  <th>Status code</th>
                  <th>Duration</th>
                  <th>Error</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a, i) => (
                  <tr key={i}>
                    <td data-label="Attempted">{when(a.attempted_at)}</td>
                    <td data-label="Status code" class="status-code">
                      {a.status_code ?? '—'}
                    </td>
                    <td data-label="Duration">{a.duration_ms} ms</td>
                    <td data-label="Error">{a.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {d.next_attempt_at && <p class="muted">Next attempt {when(d.next_attempt_at)}</p>}
          <button type="button" class="small" onClick={() => redeliver(d)}>
            Redeliver
          </button>
        </details>
      ))}
    </div>
  );
}

function Register({ onCreated }: { onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState('https://');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<string[]>(['sheet.created']);
  const [error, setError] = useState<string>();
  const toggle = (e: string) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]));
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setError(undefined);
    try {
      const r = await api<ApiResponse<'createWebhook'>>('POST', '/webhooks', { url, events, ...(name ? { name } : {}) });
      onCreated(r.webhook.secret);
      setUrl('https://');
      setName('');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Register a webhook</h2>
      <label>
        HTTPS URL
        <input name="url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
      </label>
      <label>
        Name (optional)
        <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <fieldset class="events">
        <legend>Events</legend>
        {['*', ...EVENT_NAMES].map((e) => (
          <label key={e} class="check">
            <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} /> {e === '*' ? '* (all events)' : e}
          </label>
        ))}
      </fieldset>
      <Notice error={error} />
      <button type="submit" disabled={events.length === 0}>
        Register
      </button>
    </form>
  );
}

export function WebhooksPage({ me }: { me: Me }) {
  const hooks = useLoad(() => api<ApiResponse<'listWebhooks'>>('GET', '/webhooks').then((r) => r.webhooks), []);
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [deleting, setDeleting] = useState<Webhook>();
  const [logVersion, setLogVersion] = useState(0);
  const [message, setMessage] = useState<{ error?: string; info?: string }>({});
  const act = async (fn: () => Promise<unknown>, info?: string) => {
    setMessage({});
    try {
      await fn();
      if (info) setMessage({ info });
      hooks.reload();
    } catch (err) {
      setMessage({ error: (err as Error).message });
    }
  };
  const test = async (h: Webhook) => {
    setMessage({});
    try {
      const r = await api<ApiResponse<'testWebhook'>>('POST', path`/webhooks/${h.id}/test`);
      const a = r.delivery.attempts.at(-1);
      setMessage({ info: `Test sent: ${r.delivery.status}${a ? `, HTTP ${a.status_code ?? '—'} in ${a.duration_ms} ms` : ''}` });
      setOpen(h.id);
      setLogVersion((v) => v + 1);
    } catch (err) {
      setMessage({ error: (err as Error).message });
    }
  };

  return (
    <>
      <h1>Webhooks</h1>
      {me.plan === 'free' && <p class="notice">Webhooks need the Pro plan or higher.</p>}
      {secret && <ShownOnce label="Webhook secret" value={secret} onDone={() => setSecret(undefined)} />}
      <Notice error={message.error}>{message.info}</Notice>
      <Notice error={hooks.error} />
      {hooks.data?.length === 0 && <p class="muted">No webhooks registered.</p>}
      {hooks.data?.map((h) => (
        <section key={h.id} class="card webhook" data-webhook-id={h.id}>
          <div class="row spread">
            <div>
              <strong>{h.name || h.url}</strong> <Badge value={h.status} />
              <div class="muted small-text">{h.url}</div>
              <div class="small-text">{h.events.join(', ')}</div>
            </div>
            <div class="row">
              {h.status === 'disabled' && (
                <button type="button" class="small" onClick={() => act(() => api('POST', path`/webhooks/${h.id}/enable`), 'Webhook enabled')}>
                  Enable
                </button>
              )}
              <button type="button" class="small ghost" onClick={() => test(h)}>
                Send test
              </button>
              <button type="button" class="small ghost" onClick={() => setOpen(open === h.id ? undefined : h.id)}>
                Deliveries
              </button>
              <button type="button" class="small danger" onClick={() => setDeleting(h)}>
                Delete
              </button>
            </div>
          </div>
          {h.status === 'disabled' && (
            <p class="notice error disabled-why">
              Disabled {when(h.disabled_at)}
              {h.disabled_reason ? `: ${h.disabled_reason}` : ''}. New events are not delivered until it is enabled.
            </p>
          )}
          {open === h.id && <Deliveries hook={h} version={logVersion} />}
        </section>
      ))}
      <Register
        onCreated={(s) => {
          setSecret(s);
          hooks.reload();
        }}
      />
      {deleting && (
        <Confirm
          message={`Delete the webhook ${deleting.url} and its delivery log?`}
          action="Delete"
          onConfirm={() => {
            const h = deleting;
            setDeleting(undefined);
            void act(() => api('DELETE', path`/webhooks/${h.id}`));
          }}
          onCancel={() => setDeleting(undefined)}
        />
      )}
    </>
  );
}
