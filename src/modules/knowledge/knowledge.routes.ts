import type { ZApp } from '../../http/types.js';
import { IdParams, responses } from '../../http/schemas.js';
import type { KnowledgeService } from './knowledge.service.js';
import {
  CreateKnowledgeBody,
  CreateKnowledgeQuery,
  CreateKnowledgeResponse,
  DeleteKnowledgeResponse,
  KnowledgeEntryResponse,
  ListKnowledgeQuery,
  ListKnowledgeResponse,
  UpdateKnowledgeBody,
} from './knowledge.schemas.js';

export function registerKnowledgeRoutes(app: ZApp, knowledge: KnowledgeService) {
  const tags = ['Knowledge'];
  const ok = true as const;

  app.get('/knowledge', {
    schema: {
      tags,
      operationId: 'listKnowledge',
      summary: 'List or search solutions and snippets (type=solutions|snippets, or both without type), newest first',
      querystring: ListKnowledgeQuery,
      response: responses(ListKnowledgeResponse),
    },
    handler: async (req) => ({ success: ok, ...(await knowledge.list(req.auth.userId, req.query)) }),
  });
  app.post('/knowledge', {
    schema: {
      tags,
      operationId: 'createKnowledge',
      summary: 'Save a solution (type=solutions) or a snippet (type=snippets)',
      querystring: CreateKnowledgeQuery,
      body: CreateKnowledgeBody,
      response: responses(CreateKnowledgeResponse, 413, 415),
    },
    handler: async (req) => {
      const entry = await knowledge.create(req.auth.userId, req.query.type, req.body);
      return { success: ok, id: entry.type === 'solution' ? entry.solution.id : entry.snippet.id, ...entry };
    },
  });
  app.get('/knowledge/:id', {
    schema: { tags, operationId: 'getKnowledge', summary: 'Fetch one solution or snippet', params: IdParams, response: responses(KnowledgeEntryResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await knowledge.get(req.auth.userId, req.params.id)) }),
  });
  app.put('/knowledge/:id', {
    schema: {
      tags,
      operationId: 'updateKnowledge',
      summary: 'Partially update a solution or snippet; fires knowledge.saved when something changed',
      params: IdParams,
      body: UpdateKnowledgeBody,
      response: responses(KnowledgeEntryResponse, 403, 404, 413, 415),
    },
    handler: async (req) => ({ success: ok, ...(await knowledge.update(req.auth.userId, req.params.id, req.body)) }),
  });
  app.delete('/knowledge/:id', {
    schema: { tags, operationId: 'deleteKnowledge', summary: 'Remove a solution or snippet', params: IdParams, response: responses(DeleteKnowledgeResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await knowledge.remove(req.auth.userId, req.params.id)) }),
  });
}
