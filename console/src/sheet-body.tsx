import { SafeHtml } from './components.tsx';
import { columnOrder } from './sheet-draft.ts';
import type { Sheet } from './types.ts';

/** Columns in numeric order, each rendered through the sanitizer. */
export function SheetBody({ sheet }: { sheet: Sheet }) {
  return (
    <div class="columns">
      {columnOrder(Object.keys(sheet.content)).map((k) => (
        <SafeHtml key={k} class="column rendered" html={sheet.content[k]} />
      ))}
    </div>
  );
}
