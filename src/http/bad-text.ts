import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { describeBadText, findBadText } from '../lib/bad-text.js';

/**
 * Every route in the scope refuses NUL and lone surrogates in its body, query string and path
 * parameters with a 400 naming the field, before schema validation (so even a field the schema
 * would drop is named) and before anything reaches a database.
 */
export function refuseBadText(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (req) => {
    const parts: [unknown, string][] = [
      [req.params, 'path parameter'],
      [req.query, 'query parameter'],
      [req.body, 'field'],
    ];
    for (const [value, where] of parts) {
      const bad = findBadText(value);
      if (bad) throw new AppError('invalid_request', describeBadText(bad, where));
    }
  });
}
