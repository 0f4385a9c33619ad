import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import pkg from '../../package.json' with { type: 'json' };

export const API_PREFIX = '/v1';

type OpenApiDoc = { components?: { schemas?: Record<string, unknown> } };

/** zod registers an input and an output variant of each named schema; keep only the ones an operation uses. */
function dropUnusedSchemas<T extends object>(doc: T): T {
  const schemas = (doc as OpenApiDoc).components?.schemas;
  if (!schemas) return doc;
  const { components: _components, ...rest } = doc as OpenApiDoc;
  const refsIn = (value: unknown) => new Set([...JSON.stringify(value).matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
  const keep = refsIn(rest);
  for (let grew = true; grew;) {
    grew = false;
    for (const name of [...keep]) {
      for (const ref of refsIn(schemas[name] ?? {})) {
        if (!keep.has(ref)) {
          keep.add(ref);
          grew = true;
        }
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!keep.has(name)) delete schemas[name];
  return doc;
}

/**
 * The one <style> element Swagger UI injects at run time, allowed by its hash (not 'unsafe-inline').
 * test/e2e/security-headers.test.ts loads the playground in Chromium and fails on any CSP violation, so a
 * Swagger UI upgrade that changes it shows up there with the new hash in the message.
 */
const SWAGGER_UI_INLINE_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** Runs before window.onload starts Swagger UI, whose persistAuthorization reads and writes the global localStorage. */
const SESSION_STORAGE_JS = `'use strict';
try {
  localStorage.removeItem('authorized');
  Object.defineProperty(window, 'localStorage', { configurable: true, get: function () { return window.sessionStorage; } });
} catch (e) {}
`;

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sheet Workspace API',
        version: pkg.version,
        description:
          'Working memory for people who code with AI assistants. Every request needs `Authorization: Bearer sk_...`. ' + 'Every response is JSON with `success`; errors are `{success:false, error, code}`.',
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
    transformObject: (input) => dropUnusedSchemas(jsonSchemaTransformObject(input)),
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: '/playground',
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayRequestDuration: true },
    // Swagger UI's own static CSP, but never framed and without upgrade-insecure-requests (a plain-http install).
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace("style-src 'self'", `style-src 'self' ${SWAGGER_UI_INLINE_STYLE}`),
    // persistAuthorization keeps the pasted key in localStorage (kept forever, shared by every tab):
    // this script, loaded before the UI starts, points Swagger UI at sessionStorage instead.
    theme: { js: [{ filename: 'session-storage.js', content: SESSION_STORAGE_JS }] },
  });

  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
