import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import { z } from 'zod';
import { IfMatchHeaders, IfNoneMatchHeaders, NotModifiedResponse, etagOf, notModified, sendNotModified } from '../../http/preconditions.js';
import { expectedVersions } from '../../auth/expected-versions.js';
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

const etagged = <T extends z.ZodType>(schema: T): T =>
  schema.meta({ headers: { ETag: { type: 'string', description: 'The entry\'s version in quotes, e.g. "3": send it back in If-Match or If-None-Match.' } } } as never);
const versionOf = (entry: KnowledgeEntry) => (entry.type === 'solution' ? entry.solution.version : entry.snippet.version);

export function registerKnowledgeRoutes(app: ZApp, knowledge: KnowledgeService) {
  const tags = ['Knowledge'];
  const ok = true as const;

  app.get('/knowledge', {
    schema: {
      tags,
      operationId: 'listKnowledge',
      summary: 'List or search the solutions and snippets of one workspace (type=solutions|snippets, or both without type), newest first',
      querystring: ListKnowledgeQuery,
      response: responses(ListKnowledgeResponse),
    },
    handler: async (req) => {
      const [lists, totals] = await Promise.all([knowledge.list(req.auth, req.query), knowledge.counts(req.auth, req.query)]);
      return { success: ok, ...lists, total: (totals.solutions ?? 0) + (totals.snippets ?? 0) };
    },
  });
  app.post('/knowledge', {
    schema: {
      tags,
      operationId: 'createKnowledge',
      summary: "Save a solution (type=solutions) or a snippet (type=snippets), in your personal workspace or the body's workspace_id",
      querystring: CreateKnowledgeQuery,
      body: CreateKnowledgeBody,
      response: responses(etagged(CreateKnowledgeResponse), 413, 415),
    },
    handler: async (req, reply) => {
      const entry = withEtag(reply, await knowledge.create(req.auth, req.query.type, req.body));
      return { success: ok, id: entry.type === 'solution' ? entry.solution.id : entry.snippet.id, ...entry };
    },
  });
  app.get('/knowledge/:id', {
    schema: {
      tags,
      operationId: 'getKnowledge',
      summary: 'Fetch one solution or snippet; ETag is its version, If-None-Match answers 304',
      params: IdParams,
      headers: IfNoneMatchHeaders,
      response: { ...responses(etagged(KnowledgeEntryResponse), 403, 404), 304: NotModifiedResponse },
    },
    handler: async (req, reply) => {
      const entry = await knowledge.get(req.auth, req.params.id);
      if (notModified(req.headers['if-none-match'], versionOf(entry))) return sendNotModified(reply, versionOf(entry));
      return { success: ok, ...withEtag(reply, entry) };
    },
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
      response: responses(etagged(KnowledgeEntryResponse), 403, 404, 412, 413, 415),
    },
    handler: async (req, reply) => {
      const { expected_version, ...patch } = req.body;
      const expected = expectedVersions(req.headers['if-match'], expected_version);
      return { success: ok, ...withEtag(reply, await knowledge.update(req.auth, req.params.id, patch, expected)) };
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
    handler: async (req) => ({ success: ok, ...(await knowledge.remove(req.auth, req.params.id, expectedVersions(req.headers['if-match']))) }),
  });
}
