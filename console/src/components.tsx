import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { sanitizeHtml } from '../../src/lib/sanitize-html.ts';

/** User HTML, always through the same allowlist sanitizer the server uses for exports. */
export function SafeHtml({ html, class: cls }: { html: string; class?: string }) {
  return <div class={cls} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}

export function Notice({ error, children }: { error?: string; children?: ComponentChildren }) {
  if (error)
    return (
      <p class="notice error" role="alert">
        {error}
      </p>
    );
  return children ? <p class="notice">{children}</p> : null;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const el = document.createElement('textarea');
      el.value = text;
      document.body.append(el);
      el.select();
      document.execCommand('copy');
      el.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" class="small" onClick={copy}>
      {done ? 'Copied' : label}
    </button>
  );
}

/** A value shown exactly once (a new key or webhook secret). */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // Whatever is above it on the page, the value is in view the moment it appears.
  useEffect(() => box.current?.scrollIntoView({ block: 'nearest' }), [value]);
  return (
    <div class="once" role="status" ref={box}>
      <strong>{label}</strong>
      <p>Copy it now: it is shown only this once.</p>
      <div class="row">
        <code class="secret" data-testid="shown-once">
          {value}
        </code>
        <CopyButton text={value} />
        <button type="button" class="small ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Open dialogs, innermost last: only that one answers Tab and Escape. */
const openDialogs: HTMLElement[] = [];

/**
 * A modal dialog's keyboard contract: focus moves in (to `initial`, else the first control), Tab and
 * Shift+Tab cycle inside it, Escape closes it, and on close focus goes back where it was.
 */
export function useDialog(dialog: RefObject<HTMLElement | null>, onClose: () => void, initial?: RefObject<HTMLElement | null>) {
  const close = useRef(onClose);
  close.current = onClose;
  // A layout effect: the keys are taken and focus moved in before the dialog is painted. In an effect
  // (after the paint) an Escape pressed as soon as the dialog showed could come before the listener.
  useLayoutEffect(() => {
    const el = dialog.current!;
    const before = document.activeElement as HTMLElement | null;
    openDialogs.push(el);
    (initial?.current ?? el.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== el) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        close.current();
      } else if (e.key === 'Tab') {
        const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
        if (items.length === 0) return;
        const at = items.indexOf(document.activeElement as HTMLElement);
        const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === items.length - 1 || at < 0 ? 0 : at + 1;
        e.preventDefault();
        items[next].focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      openDialogs.splice(openDialogs.indexOf(el), 1);
      // The control that opened it may be gone (a page changed under it); then focus stays put.
      if (before?.isConnected) before.focus();
    };
    // Once per dialog: set up when it opens, undone when it closes.
  }, []);
}

/** In-page confirmation (no window.confirm, so the page never opens a browser dialog). Focus starts on Cancel; Escape cancels. */
export function Confirm({ message, action, onConfirm, onCancel }: { message: string; action: string; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useDialog(dialog, onCancel, cancel);
  return (
    <div class="modal-backdrop">
      <div class="modal" ref={dialog} role="dialog" aria-modal="true" aria-label={action} aria-describedby="confirm-message">
        <p id="confirm-message">{message}</p>
        <div class="row end">
          <button type="button" class="ghost" ref={cancel} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" class="danger" onClick={onConfirm}>
            {action}
          </button>
        </div>
      </div>
    </div>
  );
}

export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value.replace(/[^a-z_]/g, '')}`}>{value.replace('_', ' ')}</span>;
}

export interface Bar {
  key: string;
  label: string;
  hours: number;
  title: string;
}

/**
 * Bars of hours at a fixed size in CSS pixels (never scaled to the window): `slot` pixels per bar, so
 * labels stay readable at any width. Wider than its box, it scrolls sideways, showing the newest end.
 * Plain SVG attributes, so the strict CSP (no inline styles) holds.
 */
export function HoursChart({ bars, label, slot }: { bars: Bar[]; label: string; slot: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollLeft = scroller.current.scrollWidth;
  }, [bars.length]);
  const max = Math.max(...bars.map((b) => b.hours), 1);
  const h = 96;
  const top = 18;
  const width = bars.length * slot;
  return (
    <div class="chart-scroll" ref={scroller}>
      <svg class="chart" width={width} height={top + h + 22} viewBox={`0 ${-top} ${width} ${top + h + 22}`} role="img" aria-label={label}>
        <line x1="0" x2={width} y1={h + 0.5} y2={h + 0.5} class="axis" />
        {bars.map((b, i) => {
          const bh = b.hours > 0 ? Math.max(2, Math.round((b.hours / max) * h)) : 0;
          const x = i * slot;
          return (
            <g key={b.key} data-key={b.key} data-hours={b.hours}>
              <title>{b.title}</title>
              <rect x={x + 4} y={h - Math.max(bh, 1)} width={slot - 8} height={Math.max(bh, 1)} rx="2" class={bh ? 'bar' : 'bar empty'} />
              {bh > 0 && (
                <text x={x + slot / 2} y={h - bh - 4} text-anchor="middle" class="bar-value">
                  {b.hours}
                </text>
              )}
              <text x={x + slot / 2} y={h + 16} text-anchor="middle" class="bar-label">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
