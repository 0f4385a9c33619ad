import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import type { SparksService } from './sparks.service.js';
import {
  CreateSparkBody,
  DeleteSparkResponse,
  ListSparksQuery,
  ListSparksResponse,
  PostSparkBody,
  PostSparkResponse,
  RunSparkBody,
  SparkQuery,
  SparkResponse,
  TranslateBody,
  UpdateSparkBody,
  parseBody,
} from './sparks.schemas.js';

export function registerSparkRoutes(app: ZApp, sparks: SparksService) {
  const tags = ['Sparks'];
  const ok = true as const;

  app.get('/spark', {
    schema: {
      tags,
      operationId: 'listSparks',
      summary: "List public sparks and a workspace's own (default: your personal workspace's)",
      querystring: ListSparksQuery,
      response: responses(ListSparksResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await sparks.list(req.auth, req.query.workspace_id)) }),
  });
  app.post('/spark', {
    schema: {
      tags,
      operationId: 'postSpark',
      summary: 'Run a spark; with action=translate translate text; with action=create create your own spark',
      description:
        'No action: body {spark_id, content, sheet_id?} -> {success, spark_id, spark_name, result}. ' +
        'action=translate: body {content, target_lang, sheet_id?} -> {success, target_lang, result}. ' +
        "Run and translate take workspace_id? (default: the sheet's workspace with sheet_id, else personal): the workspace the run counts in. " +
        'action=create: body {name, description?, icon?, category?, prompt, workspace_id?} (the text replaces {{content}} in prompt, or is appended after it) -> {success, id, spark}. ' +
        '503 when the spark needs an AI provider and none is configured; 502 when the provider fails or times out.',
      querystring: SparkQuery,
      body: PostSparkBody,
      response: responses(PostSparkResponse, 403, 404, 413, 415, 502, 503),
    },
    handler: async (req) => {
      const caller = req.auth;
      switch (req.query.action) {
        case 'translate':
          return { success: ok, ...(await sparks.translate(caller, parseBody(TranslateBody, req.body))) };
        case 'create': {
          const spark = await sparks.create(caller, parseBody(CreateSparkBody, req.body));
          return { success: ok, id: spark.id, spark };
        }
        default:
          return { success: ok, ...(await sparks.run(caller, parseBody(RunSparkBody, req.body))) };
      }
    },
  });
  app.get('/spark/:id', {
    schema: { tags, operationId: 'getSpark', summary: 'Fetch one spark with its prompt', params: IdParams, response: responses(SparkResponse, 403, 404) },
    handler: async (req) => ({ success: ok, spark: await sparks.get(req.auth, req.params.id) }),
  });
  app.put('/spark/:id', {
    schema: { tags, operationId: 'updateSpark', summary: 'Change your own spark', params: IdParams, body: UpdateSparkBody, response: responses(SparkResponse, 403, 404, 413, 415) },
    handler: async (req) => ({ success: ok, spark: await sparks.update(req.auth, req.params.id, req.body) }),
  });
  app.delete('/spark/:id', {
    schema: { tags, operationId: 'deleteSpark', summary: 'Delete your own spark', params: IdParams, response: responses(DeleteSparkResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await sparks.remove(req.auth, req.params.id)) }),
  });
}
