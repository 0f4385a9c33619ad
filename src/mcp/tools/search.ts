import { z } from 'zod';
import { SearchResponse, SearchToolInput, type SearchResultView } from '../../modules/search/search.schemas.js';
import { SEARCH_SCOPES, type SearchService } from '../../modules/search/search.service.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services this tool calls. */
export interface SearchToolDeps {
  search: SearchService;
}

const LINE_SNIPPET = 140;

/** One line per hit: rank, kind and id (what get_* tools take), title, project and the start of the snippet. */
export function searchLine(r: SearchResultView, i: number): string {
  const snippet = Array.from(r.snippet);
  const shown = snippet.length > LINE_SNIPPET ? `${snippet.slice(0, LINE_SNIPPET - 1).join('')}…` : r.snippet;
  return `${i + 1}. [${r.type} ${r.id}] ${r.title}${r.project ? ` (${r.project})` : ''} ${r.updatedAt.slice(0, 10)}: ${shown}`;
}

export function registerSearchTools(t: ToolRegistry, deps: SearchToolDeps): void {
  t.define('search', {
    title: 'Search everything',
    description:
      'Search sheets (handovers included), sessions, solutions, snippets and todos at once, best match first: ask in your own words, ' +
      'or paste an error line, file path or identifier (words are ranked, not all required; other word forms and Japanese/Chinese/Korean match). ' +
      'types narrows the kinds (sheet, session, solution, snippet, todo); project keeps one project, prefer_project ranks it first (pass the current project). ' +
      'Each hit is one line in lines, with its kind and id for get_sheet, get_session, get_solution, get_snippet or list_todos; results holds the same hits in full. ' +
      'Searches every workspace you can read unless workspace_id names one. Each kind needs its read scope.',
    input: SearchToolInput,
    output: SearchResponse.extend({ lines: z.array(z.string()).describe('One line per hit: rank, [type id], title, project, date and the start of the snippet.') }),
    annotations: READ_ONLY,
    source: 'querystring',
    anyScope: SEARCH_SCOPES,
    run: async (args, auth) => {
      const found = await deps.search.search(auth, args);
      return { ...found, lines: found.results.map(searchLine) };
    },
  });
}
