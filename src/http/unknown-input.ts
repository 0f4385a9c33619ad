import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { describeUnknownKey, findUnknownKey } from '../lib/unknown-keys.js';

/**
 * Every route in the scope refuses a body field or query parameter its schema does not declare, with a
 * 400 naming it (and the closest known name), instead of letting zod drop it: a typo must not make an
 * empty sheet or a key that never expires. Runs before the idempotency claim, so a refused typo stores nothing.
 */
export function refuseUnknownInput(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (req) => {
    const schema = req.routeOptions.schema as { body?: z.ZodType; querystring?: z.ZodType } | undefined;
    if (!schema) return;
    const inBody = schema.body && findUnknownKey(schema.body, req.body);
    if (inBody) throw new AppError('invalid_request', describeUnknownKey(inBody, 'field'));
    const inQuery = schema.querystring && findUnknownKey(schema.querystring, req.query);
    if (inQuery) throw new AppError('invalid_request', describeUnknownKey(inQuery, 'query parameter'));
  });
}
