import { Editor, Node, mergeAttributes } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import type { EditorState } from '@tiptap/pm/state';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Toolbar } from './toolbar.tsx';
import { sanitizeHtml } from '../../src/lib/sanitize-html.ts';

/** Images are kept (StarterKit has none), so editing a column never drops its pictures. */
const Image = Node.create({
  name: 'image',
  inline: true,
  group: 'inline',
  draggable: true,
  addAttributes: () => ({ src: { default: null }, alt: { default: null }, title: { default: null } }),
  parseHTML: () => [{ tag: 'img[src]' }],
  renderHTML: ({ HTMLAttributes }) => ['img', mergeAttributes(HTMLAttributes)],
});

export const PLACEHOLDER = 'Write here…';
const isEmpty = (state: EditorState) => state.doc.childCount === 1 && !!state.doc.firstChild?.isTextblock && state.doc.firstChild.content.size === 0;

/**
 * One column's TipTap editor, driven from Preact without a binding: the editor owns its DOM node.
 * `html` is applied only when it differs from what the editor already shows (a remote change);
 * `onChange` fires only for the person's own edits. Pasted and loaded HTML go through the
 * sanitizer first (the server's sanitizer still decides what is stored).
 */
export function RichText({ label, html, onChange, readOnly }: { label: string; html: string; onChange: (html: string) => void; readOnly?: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor>(undefined);
  // HTML this editor produced itself: a render that hands one of these back is an echo of typing
  // (possibly a stale one, since effects run after later keystrokes), never a reason to reset.
  const emitted = useRef(new Set<string>([html]));
  const changed = useRef(onChange);
  changed.current = onChange;
  // Re-render on every transaction, so the toolbar shows what the selection has (bold, a heading...).
  const [, bump] = useState(0);

  useEffect(() => {
    const ed = new Editor({
      element: host.current!,
      // Tables (GFM tables from agents) would otherwise be flattened to paragraphs on the first edit.
      extensions: [StarterKit.configure({ link: { openOnClick: false } }), Image, Table, TableRow, TableHeader, TableCell],
      content: sanitizeHtml(html),
      injectCSS: false,
      editable: !readOnly,
      editorProps: {
        // A function of the state, so an empty column shows the placeholder (CSS ::before, no inline style).
        attributes: (state) => ({
          'aria-label': label,
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-placeholder': PLACEHOLDER,
          'data-placeholder': PLACEHOLDER,
          class: isEmpty(state) ? 'rich-text is-empty' : 'rich-text',
          spellcheck: 'true',
        }),
        transformPastedHTML: (pasted) => sanitizeHtml(pasted),
      },
      onUpdate: ({ editor: e }) => {
        const next = e.getHTML();
        if (emitted.current.size > 200) emitted.current.clear();
        emitted.current.add(next);
        changed.current(next);
      },
      onTransaction: () => bump((n) => n + 1),
    });
    editor.current = ed;
    bump((n) => n + 1); // the toolbar needs the editor
    return () => ed.destroy();
    // One editor per mount, destroyed on unmount; a later `onChange` reaches it through `changed`.
  }, []);

  useEffect(() => {
    const ed = editor.current;
    if (!ed || emitted.current.has(html) || html === ed.getHTML()) return;
    emitted.current = new Set([html]);
    ed.commands.setContent(sanitizeHtml(html), { emitUpdate: false });
  }, [html]);

  useEffect(() => editor.current?.setEditable(!readOnly, false), [readOnly]);

  return (
    <>
      {!readOnly && editor.current && <Toolbar editor={editor.current} label={label} />}
      <div class="rich-host" ref={host} data-column={label} />
    </>
  );
}
