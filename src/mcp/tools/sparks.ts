import { z } from 'zod';
import type { SparksService } from '../../modules/sparks/sparks.service.js';
import { IdParams, recordInWorkspace } from '../../lib/schema-fields.js';
import {
  CreateSparkBody,
  CreateSparkResponse,
  DeleteSparkResponse,
  ListSparksQuery,
  ListSparksResponse,
  RunSparkBody,
  RunSparkResponse,
  SparkResponse,
  TranslateBody,
  TranslateResponse,
  UpdateSparkBody,
  parseBody,
} from '../../modules/sparks/sparks.schemas.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';

const SparkId = IdParams.shape.id.describe('Spark id, e.g. spk_summarize or one of your own.');
/** By id: the workspace the spark is expected in (optional; a spark elsewhere is a 403). */
const InWorkspace = recordInWorkspace('spark');
/** A run records an execution (stats, spark.executed) and may call the configured AI provider. */
const RUNS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** The services these tools call. */
export interface SparkToolDeps {
  sparks: SparksService;
}

export function registerSparkTools(t: ToolRegistry, deps: SparkToolDeps): void {
  t.define('list_sparks', {
    title: 'List Sparks',
    description:
      'List the Sparks (AI text actions) the user can run: public ones (summarize, proofread, explain code, commit message, ...) and their own. ' +
      'requires_ai false means it runs without an AI provider; ai_provider null means only those can run. All are returned (has_more is always false). ' +
      "workspace_id (wsp_...) lists a team workspace's own sparks instead of your personal ones.",
    input: ListSparksQuery,
    output: ListSparksResponse.extend({ total: z.number().int(), has_more: z.boolean() }),
    annotations: READ_ONLY,
    run: async (args, auth) => {
      const r = await deps.sparks.list(auth, args.workspace_id);
      return { success: true as const, ...r, total: r.sparks.length, has_more: false };
    },
  });

  t.define('run_spark', {
    creates: true,
    title: 'Run a Spark on text',
    description:
      'Run one Spark (spark_id from list_sparks) on the given text and return its result. Pass sheet_id when the text comes from a sheet, ' +
      "so the spark.executed webhook event names it; the run counts in that sheet's workspace (or workspace_id, default personal). Fails with 503 when the spark needs an AI provider and none is configured.",
    input: RunSparkBody,
    output: RunSparkResponse,
    annotations: RUNS,
    validate: (args) => parseBody(RunSparkBody, args),
    run: async (args, auth) => ({ success: true as const, ...(await deps.sparks.run(auth, args)) }),
  });

  t.define('translate_text', {
    creates: true,
    title: 'Translate text',
    description: 'Translate text into one of en, ja, zh, ko, es, fr, de, pt, it, ru with the configured AI provider. Counts as a Spark run (spark_id "translate").',
    input: TranslateBody,
    output: TranslateResponse,
    annotations: RUNS,
    validate: (args) => parseBody(TranslateBody, args),
    run: async (args, auth) => ({ success: true as const, ...(await deps.sparks.translate(auth, args)) }),
  });

  t.define('get_spark', {
    title: 'Get a Spark',
    description: 'Fetch one Spark by id with its prompt (the template of your own sparks, the system prompt of public model sparks).',
    input: z.object({ id: SparkId, workspace_id: InWorkspace }),
    output: SparkResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, spark: await deps.sparks.get(auth, args.id, args.workspace_id) }),
  });

  t.define('create_spark', {
    creates: true,
    title: 'Create your own Spark',
    description:
      'Create a reusable Spark of your own: name, prompt (a template; {{content}} marks where the text goes, else the text is appended after it), optional description, icon, ' +
      'category (writing, summarize, code, productivity, translate, custom); workspace_id (wsp_...) makes it in a team workspace, for its members.',
    input: CreateSparkBody,
    output: CreateSparkResponse,
    annotations: ADDITIVE,
    validate: (args) => parseBody(CreateSparkBody, args),
    run: async (args, auth) => {
      const spark = await deps.sparks.create(auth, args);
      return { success: true as const, id: spark.id, spark };
    },
  });

  t.define('update_spark', {
    title: 'Change your own Spark',
    description: 'Change fields of one of your own Sparks (public sparks cannot be changed). Fields not sent stay.',
    input: UpdateSparkBody.extend({ id: SparkId, workspace_id: InWorkspace }),
    output: SparkResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, workspace_id, ...patch }, auth) => ({ success: true as const, spark: await deps.sparks.update(auth, id, patch, workspace_id) }),
  });

  t.define('delete_spark', {
    title: 'Delete your own Spark',
    description: 'Delete one of your own Sparks for good. Only when the user asked for it.',
    input: z.object({ id: SparkId, workspace_id: InWorkspace }),
    output: DeleteSparkResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.sparks.remove(auth, args.id, args.workspace_id)) }),
  });
}
