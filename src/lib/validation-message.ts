/**
 * A request's validation issues as one message in the API's words ("field 'title': must be a string,
 * not a number"). REST's error handler words Fastify's issues with it, MCP tools their zod issues, so
 * both say the same thing about the same mistake.
 */

export interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { code?: string; message?: string; expected?: string; path?: PropertyKey[] } };
}

export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field';
  return issues
    .slice(0, 5)
    .map((i) => {
      const field = (i.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      const message = i.params?.issue?.message ?? i.message ?? 'is invalid';
      if (!field) return message.startsWith('Invalid input') ? `Request ${context ?? 'body'} must be a JSON object` : message;
      if (/received undefined/.test(message)) return `${where} '${field}' is required`;
      return `${where} '${field}': ${inApiWords(message)}`;
    })
    .join('; ');
}

const KIND: Record<string, string> = {
  record: 'an object',
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  null: 'null',
};

/** zod's `Invalid input: expected record, received string` as a person reads it: `must be an object, not a string`. */
export function inApiWords(message: string): string {
  const m = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (!m) return message;
  return `must be ${KIND[m[1]!] ?? m[1]}, not ${KIND[m[2]!] ?? m[2]}`;
}
