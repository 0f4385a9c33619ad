import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import pkg from '../../package.json' with { type: 'json' };

export const API_PREFIX = '/v1';

type OpenApiDoc = { components?: { schemas?: Record<string, unknown> } };

/** zod registers an input and an output variant of each named schema; keep only the ones an operation uses. */
function dropUnusedSchemas<T extends OpenApiDoc>(doc: T): T {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const { components: _components, ...rest } = doc;
  const refsIn = (value: unknown) =>
    new Set([...JSON.stringify(value).matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
  const keep = refsIn(rest);
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...keep]) {
      for (const ref of refsIn(schemas[name] ?? {})) if (!keep.has(ref)) (keep.add(ref), (grew = true));
    }
  }
  for (const name of Object.keys(schemas)) if (!keep.has(name)) delete schemas[name];
  return doc;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sheet Workspace API',
        version: pkg.version,
        description:
          'Working memory for people who code with AI assistants. Every request needs `Authorization: Bearer sk_...`. ' +
          'Every response is JSON with `success`; errors are `{success:false, error, code}`.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: API_PREFIX, description: 'This server' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'sk_...', description: 'An API key from POST /api-keys or the CLI.' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: (input) => {
      if (!input.url.startsWith(`${API_PREFIX}/`) || input.url === `${API_PREFIX}/openapi.json`) {
        return { schema: { ...input.schema, hide: true }, url: input.url };
      }
      const out = jsonSchemaTransform(input);
      return { ...out, url: input.url.slice(API_PREFIX.length) };
    },
    transformObject: ((input: any) => dropUnusedSchemas(jsonSchemaTransformObject(input) as OpenApiDoc)) as any,
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: '/playground',
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayRequestDuration: true },
    staticCSP: true,
  });

  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
