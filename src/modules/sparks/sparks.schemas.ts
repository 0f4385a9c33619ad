import { z } from 'zod';
import { invalid } from '../../errors.js';
import { Timestamp, WorkspaceIdInput, WorkspaceIdView } from '../../lib/schema-fields.js';
import { TARGET_LANGS } from '../../sparks/prompts.js';
import { CATEGORIES } from './catalogue.js';

export const MAX_CONTENT = 100_000;
export const MAX_PROMPT = 10_000;
export const MAX_USER_SPARKS = 100;

const Content = z
  .string()
  .min(1, 'content must not be empty')
  .max(MAX_CONTENT, `content is longer than ${MAX_CONTENT.toLocaleString('en')} characters`);
const SheetId = z.string().min(1).max(100).optional().describe("A sheet the caller may read; named in the spark.executed event, and the run counts in the sheet's workspace.");
const RunWorkspaceId = WorkspaceIdInput.describe(
  "The workspace whose statistics count the run (its members read, a user spark of it runs); default: the sheet's workspace with sheet_id, else your personal one",
);
const Category = z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` });
const Icon = z.string().regex(/^[a-z0-9][a-z0-9-]{0,49}$/, 'icon must be an icon name such as sparkles or file-text (a-z, 0-9, -)');
const Name = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');
const Description = z.string().trim().max(500, 'description must be at most 500 characters');
const Prompt = z
  .string()
  .max(MAX_PROMPT, `prompt must be at most ${MAX_PROMPT} characters`)
  .refine((p) => p.trim() !== '', 'prompt must not be empty');

export const SparkQuery = z.object({
  action: z
    .enum(['translate', 'create'], { error: 'action must be translate or create (omit it to run a spark)' })
    .optional()
    .describe('Omitted: run a spark. translate: translate content. create: create a user spark.'),
});

/** Per-action bodies of POST /spark, checked in the handler once the action is known. */
export const RunSparkBody = z.object({ spark_id: z.string().min(1).max(100), content: Content, sheet_id: SheetId, workspace_id: RunWorkspaceId });
export const TranslateBody = z.object({
  content: Content,
  target_lang: z.enum(TARGET_LANGS, { error: `target_lang must be one of ${TARGET_LANGS.join(', ')}` }),
  sheet_id: SheetId,
  workspace_id: RunWorkspaceId,
});
export const CreateSparkBody = z.object({
  name: Name,
  description: Description.default(''),
  icon: Icon.default('sparkles'),
  category: Category.default('custom'),
  prompt: Prompt,
  workspace_id: WorkspaceIdInput,
});
export const UpdateSparkBody = z.object({
  name: Name.optional(),
  description: Description.optional(),
  icon: Icon.optional(),
  category: Category.optional(),
  prompt: Prompt.optional(),
});
export type CreateSparkInput = z.infer<typeof CreateSparkBody>;
export const ListSparksQuery = z.object({ workspace_id: WorkspaceIdInput });
export type UpdateSparkInput = z.infer<typeof UpdateSparkBody>;

/** What OpenAPI shows for POST /spark: every field of the three actions; the handler checks the ones its action needs. */
export const PostSparkBody = z.object({
  spark_id: z.string().optional().describe('Run: required. The spark to run.'),
  content: z.string().optional().describe(`Run and translate: required, 1-${MAX_CONTENT} characters.`),
  sheet_id: z.string().optional().describe("Run and translate: optional. A sheet of the caller's."),
  target_lang: z
    .string()
    .optional()
    .describe(`Translate: required, one of ${TARGET_LANGS.join(', ')}.`),
  name: z.string().optional().describe('Create: required, 1-100 characters.'),
  description: z.string().optional().describe('Create: optional, up to 500 characters.'),
  icon: z.string().optional().describe('Create: optional icon name, default sparkles.'),
  category: z
    .string()
    .optional()
    .describe(`Create: optional, one of ${CATEGORIES.join(', ')}; default custom.`),
  workspace_id: z.string().optional().describe("Run, translate and create: optional workspace (wsp_...); default personal (a run on a sheet: the sheet's)."),
  prompt: z.string().optional().describe(`Create: required template, up to ${MAX_PROMPT} characters; {{content}} marks where the text goes (without it the text is appended after the prompt).`),
});

/** zod parse with the same messages as route validation: "field 'x' is required", "field 'x': ...". */
export function parseBody<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const body = input ?? {};
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const message = r.error.issues
    .slice(0, 5)
    .map((i) => {
      const field = i.path.join('.');
      if (!field) return i.message;
      const given = typeof body === 'object' && (body as Record<PropertyKey, unknown>)[i.path[0]] !== undefined;
      if (i.path.length === 1 && !given) return `field '${field}' is required`;
      return `field '${field}': ${i.message}`;
    })
    .join('; ');
  throw invalid(message);
}

export const SparkListItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  category: z.enum(CATEGORIES),
  type: z.enum(['public', 'user']),
  requires_ai: z.boolean().describe('false for sparks that run without an AI provider.'),
  workspace_id: WorkspaceIdView.nullable().describe('The workspace (wsp_...) a user spark is in; null for public sparks.'),
});
export const Spark = SparkListItem.extend({
  prompt: z.string().nullable().describe('User sparks: the template. Public model sparks: the system prompt. Null for sparks that need no model.'),
  created_at: Timestamp.nullable(),
  updated_at: Timestamp.nullable(),
}).meta({ id: 'Spark' });
export type SparkListView = z.infer<typeof SparkListItem>;
export type SparkView = z.infer<typeof Spark>;

export const ListSparksResponse = z.object({
  success: z.literal(true),
  sparks: z.array(SparkListItem),
  ai_provider: z.enum(['openai', 'anthropic']).nullable().describe('The configured AI provider; null means only sparks with requires_ai false can run.'),
});
export const RunSparkResponse = z.object({ success: z.literal(true), spark_id: z.string(), spark_name: z.string(), result: z.string() });
export const TranslateResponse = z.object({ success: z.literal(true), target_lang: z.enum(TARGET_LANGS), result: z.string() });
export const CreateSparkResponse = z.object({ success: z.literal(true), id: z.string(), spark: Spark });
export const PostSparkResponse = z.union([RunSparkResponse, TranslateResponse, CreateSparkResponse]);
export const SparkResponse = z.object({ success: z.literal(true), spark: Spark });
export const DeleteSparkResponse = z.object({ success: z.literal(true), id: z.string(), deleted: z.literal(true) });
