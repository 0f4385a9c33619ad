import type { Editor } from '@tiptap/core';
import { useRef, useState } from 'preact/hooks';

type Run = (ed: Editor) => boolean;
const BUTTONS: { name: string; text: string; active: (ed: Editor) => boolean; run: Run }[] = [
  { name: 'Bold', text: 'B', active: (ed) => ed.isActive('bold'), run: (ed) => ed.chain().focus().toggleBold().run() },
  { name: 'Italic', text: 'I', active: (ed) => ed.isActive('italic'), run: (ed) => ed.chain().focus().toggleItalic().run() },
  { name: 'Heading', text: 'H', active: (ed) => ed.isActive('heading', { level: 2 }), run: (ed) => ed.chain().focus().toggleHeading({ level: 2 }).run() },
  { name: 'Bulleted list', text: '• List', active: (ed) => ed.isActive('bulletList'), run: (ed) => ed.chain().focus().toggleBulletList().run() },
  { name: 'Code', text: '</>', active: (ed) => ed.isActive('code'), run: (ed) => ed.chain().focus().toggleCode().run() },
];

/** Only addresses the server's sanitizer keeps as links; anything else is taken as a host name. */
const linkTarget = (text: string) => (/^(https?:|mailto:|\/|#)/i.test(text) ? text : `https://${text}`);

/**
 * A column's formatting buttons. mousedown is cancelled so the editor keeps its selection; the link
 * address is asked for in the toolbar itself (the console opens no browser dialogs). One Tab stop,
 * arrows move between the buttons (the WAI-ARIA toolbar pattern).
 */
export function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const [asking, setAsking] = useState(false);
  const [href, setHref] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState(0);
  const keep = (e: Event) => e.preventDefault();
  const onArrow = (e: KeyboardEvent) => {
    const tools = [...bar.current!.querySelectorAll<HTMLButtonElement>('button.tool')];
    const i = tools.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0) return;
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tools.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const to = (next + tools.length) % tools.length;
    setAt(to);
    tools[to].focus();
  };
  const tab = (i: number) => (i === at ? 0 : -1);
  const openLink = () => {
    setHref(editor.getAttributes('link').href ?? '');
    setAsking(true);
    setTimeout(() => input.current?.focus());
  };
  const applyLink = (e: Event) => {
    e.preventDefault();
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (!url) chain.unsetLink().run();
    else if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: linkTarget(url) } }] }).run();
    } else chain.setLink({ href: linkTarget(url) }).run();
    setAsking(false);
  };
  return (
    <div class="toolbar" role="toolbar" aria-label={`Format ${label}`} ref={bar} onKeyDown={onArrow}>
      {BUTTONS.map((b, i) => (
        <button key={b.name} type="button" class="tool" tabIndex={tab(i)} aria-label={b.name} title={b.name} aria-pressed={b.active(editor)} onMouseDown={keep} onClick={() => b.run(editor)}>
          {b.text}
        </button>
      ))}
      <button type="button" class="tool" tabIndex={tab(BUTTONS.length)} aria-label="Link" title="Link" aria-pressed={editor.isActive('link')} onMouseDown={keep} onClick={openLink}>
        Link
      </button>
      {asking && (
        <form class="link-form" onSubmit={applyLink}>
          <input
            ref={input}
            type="text"
            name="link"
            aria-label="Link address"
            placeholder="https://…"
            value={href}
            onInput={(e) => setHref(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), setAsking(false), editor.commands.focus())}
          />
          <button type="submit" class="small">
            Apply
          </button>
        </form>
      )}
    </div>
  );
}
