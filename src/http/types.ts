import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../auth/context.js';

export type ZApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /v1 route. */
    auth: AuthContext;
  }
}
