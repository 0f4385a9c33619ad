import type { UserSparksTable } from '../../db/types.js';
import { publicSystemPrompt } from '../../sparks/prompts.js';
import type { Category, PublicSpark } from './catalogue.js';
import type { SparkView } from './sparks.schemas.js';

/** What GET /spark/{id} shows of a public spark: public sparks are in no workspace. */
export function publicView(s: PublicSpark): SparkView {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    icon: s.icon,
    category: s.category,
    type: 'public',
    requires_ai: s.kind === 'model',
    prompt: s.kind === 'model' ? publicSystemPrompt(s.task) : null,
    workspace_id: null,
    created_at: null,
    updated_at: null,
  };
}

/** What GET /spark/{id} shows of a user spark, with the workspace it is in. */
export function userView(r: UserSparksTable): SparkView {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    icon: r.icon,
    category: r.category as Category,
    type: 'user',
    requires_ai: true,
    prompt: r.prompt,
    workspace_id: r.workspace_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A spark as lists show it (no prompt, no times). */
export const listItem = ({ id, name, description, icon, category, type, requires_ai, workspace_id }: SparkView) => ({
  id,
  name,
  description,
  icon,
  category,
  type,
  requires_ai,
  workspace_id,
});
