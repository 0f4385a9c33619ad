import type { ZApp } from '../../http/types.js';
import { IdParams, responses } from '../../http/schemas.js';
import { IfMatchHeaders, etagOf, expectedVersions } from '../../http/preconditions.js';
import type { KnowledgeEntry, KnowledgeService } from './knowledge.service.js';
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

/** Single-entry answers carry the entry's version as ETag, for a later If-Match. */
const withEtag = (reply: { header(name: string, value: string): unknown }, entry: KnowledgeEntry) => {
  reply.header('etag', etagOf(entry.type === 'solution' ? entry.solution.version : entry.snippet.version));
  return entry;
};

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
    handler: async (req, reply) => {
      const entry = withEtag(reply, await knowledge.create(req.auth.userId, req.query.type, req.body));
      return { success: ok, id: entry.type === 'solution' ? entry.solution.id : entry.snippet.id, ...entry };
    },
  });
  app.get('/knowledge/:id', {
    schema: { tags, operationId: 'getKnowledge', summary: 'Fetch one solution or snippet', params: IdParams, response: responses(KnowledgeEntryResponse, 403, 404) },
    handler: async (req, reply) => ({ success: ok, ...withEtag(reply, await knowledge.get(req.auth.userId, req.params.id)) }),
  });
  app.put('/knowledge/:id', {
    schema: {
      tags,
      operationId: 'updateKnowledge',
      summary: 'Partially update a solution or snippet; fires knowledge.saved when something changed',
      description: 'Atomic: concurrent updates of different fields all land. With If-Match or expected_version, only from that version (else 412); a change adds 1 to version.',
      params: IdParams,
      headers: IfMatchHeaders,
      body: UpdateKnowledgeBody,
      response: responses(KnowledgeEntryResponse, 403, 404, 412, 413, 415),
    },
    handler: async (req, reply) => {
      const { expected_version, ...patch } = req.body;
      const expected = expectedVersions(req.headers['if-match'], expected_version);
      return { success: ok, ...withEtag(reply, await knowledge.update(req.auth.userId, req.params.id, patch, expected)) };
    },
  });
  app.delete('/knowledge/:id', {
    schema: {
      tags,
      operationId: 'deleteKnowledge',
      summary: 'Remove a solution or snippet',
      params: IdParams,
      headers: IfMatchHeaders,
      response: responses(DeleteKnowledgeResponse, 403, 404, 412),
    },
    handler: async (req) => ({ success: ok, ...(await knowledge.remove(req.auth.userId, req.params.id, expectedVersions(req.headers['if-match']))) }),
  });
}
