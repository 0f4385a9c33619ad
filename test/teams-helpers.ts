import assert from 'node:assert/strict';
import { expect200, type TestServer } from './helpers.js';

type Server = Pick<TestServer, 'req'>;
type Member = { key: string };
export type MemberRole = 'admin' | 'editor' | 'viewer';

/** A 403 of a workspace rule: forbidden, naming the role the action needs (and nothing else). */
export function assertForbidden(r: { status: number; body: any }, role: string, mentions?: RegExp) {
  assert.equal(r.status, 403, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body).sort(), ['code', 'error', 'required_role', 'success']);
  assert.equal(r.body.code, 'forbidden');
  assert.equal(r.body.required_role, role);
  if (mentions) assert.match(r.body.error, mentions);
}

/** `by` invites `member` into workspace `id` with `role`, and the member accepts. */
export async function addMember(s: Server, by: Member, id: string, member: Member, role: MemberRole) {
  const inv = await expect200(s, by.key, 'POST', `/v1/workspaces/${id}/invitations`, { role });
  await expect200(s, member.key, 'POST', `/v1/invitations/${inv.invitation.token}/accept`);
}

/** A new team workspace owned by `owner`, each member joined with its role; returns its id. */
export async function makeTeam(s: Server, owner: Member, name: string, members: [Member, MemberRole][] = []): Promise<string> {
  const id = (await expect200(s, owner.key, 'POST', '/v1/workspaces', { name })).workspace.id as string;
  for (const [member, role] of members) await addMember(s, owner, id, member, role);
  return id;
}
