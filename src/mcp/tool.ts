import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ErrorCode, McpError, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { AppError, CODE_TO_STATUS, type ErrorCode as AppErrorCode } from '../errors.js';
import { databaseTroubleError } from '../db/db-errors.js';
import { DEFAULT_RESULT_MAX_CHARS, TruncatedField, fitToBudget } from './budget.js';
import { describeBadText, findBadText } from '../lib/bad-text.js';
import { describeUnknownKey, findUnknownKey } from '../lib/unknown-keys.js';
import { describeValidation } from '../lib/validation-message.js';
import type { AuthContext } from '../auth/context.js';
import { hasScope, hasScopes, insufficientScope, requireScopes, toolScopes, type Granted } from '../auth/scopes.js';
import { IDEMPOTENCY_KEY_RULE, checkIdempotencyKey, idempotencyOwner, requestFingerprint, type IdempotencyService } from '../modules/idempotency/idempotency.service.js';

/** Resolves the caller's account. HTTP passes the request's auth; stdio re-checks its key on every call. */
export type AuthSource = () => Promise<AuthContext>;

type Annotations = Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

/** Truthful hint presets; a tool may still override one field. */
export const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const ADDITIVE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Annotations;
  /** Where REST takes these arguments from, so a validation error is worded exactly as REST words it. */
  source?: 'body' | 'querystring';
  /** For a tool whose REST route takes some arguments from the query string and the rest from the body. */
  queryFields?: readonly string[];
  /** When the REST handler validates the body itself (throwing AppError), the tool does exactly the same. */
  validate?: (args: unknown) => z.output<I>;
  run: (args: z.output<I>, auth: AuthContext) => Promise<z.input<O>>;
  /** The scopes a credential needs (all of them) to see and call the tool; by default derived from its name and readOnlyHint. */
  scopes?: readonly string[];
  /** Instead of scopes: any one of these lets the credential see and call the tool, which shows each its own part (get_briefing). */
  anyScope?: readonly string[];
  /** A tool that creates something: it takes an optional idempotency_key, with the rule of REST's Idempotency-Key. */
  creates?: boolean;
}

const IdempotencyKeyArg = z
  .string()
  .optional()
  .describe(
    `Optional, ${IDEMPOTENCY_KEY_RULE}. Calling again with the same key and the same arguments within 24 hours returns the first result ` +
      'and creates nothing again (safe retries); the same key with other arguments is an idempotency_key_reused error.',
  );

interface Entry {
  spec: ToolSpec<z.ZodObject, z.ZodObject>;
  /** Whether a credential with these scopes may see and call the tool. */
  allows: (granted: Granted | undefined) => boolean;
  scopes: readonly string[];
}

/**
 * REST refuses bodies over 1 MiB with 413 (BODY_LIMIT in src/http/server-settings.ts, not imported here:
 * MCP does not import the REST adapter). Over HTTP the whole /mcp message is already held to it; over
 * stdio nothing else would be, so tool arguments are measured here.
 */
export const ARGUMENTS_LIMIT = 1024 * 1024;
const TOO_LARGE = 'Request body is larger than the 1 MiB limit';

/** A REST error body plus its HTTP status, as the text of a tool error. */
export function errorResult(code: AppErrorCode, message: string, extra?: Record<string, unknown>): CallToolResult {
  const body = { success: false, error: message, code, status: CODE_TO_STATUS[code], ...extra };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** A tool's answer, cut to the result budget if larger (src/mcp/budget.ts). */
function okResult(value: Record<string, unknown>, budget: number, args: Record<string, unknown>, pages: boolean): CallToolResult {
  const fitted = fitToBudget(value, budget, args, pages);
  return { content: [{ type: 'text', text: JSON.stringify(fitted, null, 2) }], structuredContent: fitted };
}

/**
 * Same wording as the REST error handler, fed with zod issues instead of Fastify's copies of them.
 * Fastify validates the body before the query string, so body issues are reported first.
 */
export function validationMessage(source: 'body' | 'querystring', error: z.ZodError, queryFields: readonly string[] = []): string {
  const inQuery = (i: z.core.$ZodIssue) => source === 'querystring' || queryFields.includes(String(i.path[0]));
  const body = error.issues.filter((i) => !inQuery(i));
  const [context, issues] = body.length ? ['body', body] : ['querystring', error.issues];
  return describeValidation(
    context,
    issues.map((i) => ({ instancePath: `/${i.path.map(String).join('/')}`, message: i.message })),
  );
}

/**
 * Collects tool definitions, then installs them on an McpServer. Listing (JSON Schema of input and
 * output, annotations) is the SDK's; calling is ours, because the SDK words argument errors its own
 * way and REST's wording is part of our contract.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Entry>();

  /** maxResultChars: MCP_RESULT_MAX_CHARS, the most any tool result may hold. */
  /** idempotency: the service REST's Idempotency-Key uses, so keys hold across REST, MCP and processes. */
  constructor(
    readonly maxResultChars = DEFAULT_RESULT_MAX_CHARS,
    private readonly idempotency?: IdempotencyService,
  ) {}

  define<I extends z.ZodObject, O extends z.ZodObject>(name: string, spec: ToolSpec<I, O>): void {
    if (this.tools.has(name)) throw new Error(`tool ${name} defined twice`);
    spec = { ...spec, output: spec.output.extend({ truncated: TruncatedField.optional() }) as unknown as O };
    if (spec.creates) spec = { ...spec, input: spec.input.extend({ idempotency_key: IdempotencyKeyArg }) as unknown as I };
    const { anyScope } = spec;
    const scopes = anyScope ?? spec.scopes ?? toolScopes(name, spec.annotations.readOnlyHint);
    const allows = anyScope ? (g: Granted | undefined) => anyScope.some((s) => hasScope(g, s)) : (g: Granted | undefined) => hasScopes(g, scopes);
    this.tools.set(name, { spec: spec as unknown as ToolSpec<z.ZodObject, z.ZodObject>, scopes, allows });
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  async call(name: string, args: unknown, auth: AuthSource, logger?: Logger): Promise<CallToolResult> {
    const entry = this.tools.get(name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    const { spec } = entry;
    try {
      // REST's order: the key, then the body's size, then its fields.
      const caller = await auth();
      if (entry.spec.anyScope) {
        if (!entry.allows(caller.scopes)) throw insufficientScope(entry.scopes[0]);
      } else requireScopes(caller.scopes, entry.scopes);
      if (Buffer.byteLength(JSON.stringify(args ?? {})) > ARGUMENTS_LIMIT) return errorResult('payload_too_large', TOO_LARGE);
      const bad = findBadText(args);
      if (bad) return errorResult('invalid_request', describeBadText(bad));
      let key: string | undefined;
      if (spec.creates && args && typeof args === 'object' && 'idempotency_key' in args) {
        const { idempotency_key, ...rest } = args as Record<string, unknown>;
        if (idempotency_key !== undefined) key = checkIdempotencyKey(idempotency_key, 'idempotency_key');
        args = rest;
      }
      const unknownArg = findUnknownKey(spec.input, args ?? {});
      if (unknownArg) return errorResult('invalid_request', describeUnknownKey(unknownArg, 'argument'));
      let input: unknown;
      if (spec.validate) input = spec.validate(args ?? {});
      else {
        const parsed = spec.input.safeParse(args ?? {});
        if (!parsed.success) return errorResult('invalid_request', validationMessage(spec.source ?? 'body', parsed.error, spec.queryFields));
        input = parsed.data;
      }
      const execute = async () => spec.output.parse(await spec.run(input as z.output<z.ZodObject>, caller));
      if (key === undefined || !this.idempotency) return okResult(await execute(), this.maxResultChars, input as Record<string, unknown>, 'offset' in spec.input.shape);
      const outcome = await this.idempotency.begin(idempotencyOwner(caller), key, requestFingerprint('MCP', `tools/call ${name}`, args ?? {}));
      if (outcome.kind === 'replay') {
        const replayed = okResult(JSON.parse(outcome.response), this.maxResultChars, input as Record<string, unknown>, 'offset' in spec.input.shape);
        return { ...replayed, _meta: { idempotent_replayed: true } };
      }
      let out: Record<string, unknown>;
      try {
        out = await execute();
      } catch (err) {
        await outcome.release();
        throw err;
      }
      await outcome.complete(200, JSON.stringify(out));
      return okResult(out, this.maxResultChars, input as Record<string, unknown>, 'offset' in spec.input.shape);
    } catch (err) {
      if (err instanceof AppError) return errorResult(err.code, err.message, err.extra);
      logger?.error({ err, tool: name }, 'MCP tool failed');
      const trouble = databaseTroubleError(err);
      if (trouble) return errorResult(trouble.code, trouble.message);
      return errorResult('internal_error', 'Internal server error; retry later');
    }
  }

  /** `granted`: the credential's scopes, when known up front; tools outside them are not listed. */
  install(server: McpServer, auth: AuthSource, logger?: Logger, granted?: Granted, only?: ReadonlySet<string>): void {
    const offered = (name: string) => !only || only.has(name);
    for (const [name, { spec, allows }] of this.tools) {
      if (!allows(granted) || !offered(name)) continue;
      server.registerTool(
        name,
        { title: spec.title, description: spec.description, inputSchema: spec.input, outputSchema: spec.output, annotations: { title: spec.title, ...spec.annotations } },
        // Unused while the handler below is installed; kept so the SDK's own path would behave the same.
        ((args: unknown) => this.call(name, args, auth, logger)) as never,
      );
    }
    // A credential allowed no tool still gets an (empty) tools/list and tool errors on calls.
    if (!server.isConnected() && ![...this.tools].some(([name, e]) => e.allows(granted) && offered(name))) {
      server.server.registerCapabilities({ tools: {} });
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    }
    server.server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const { name } = req.params;
      if (this.tools.has(name) && !offered(name)) {
        return errorResult('invalid_request', `tool ${name} is not offered on this connection (profile coding); connect to /mcp?profile=full for every tool`);
      }
      return this.call(name, req.params.arguments, auth, logger);
    });
  }
}
