import type { AppContext } from '../../context.js';
import { record, type AuditInput } from './audit.service.js';

/**
 * Audit entries from domain events (ADR 0031): the security-relevant changes of accounts, items and
 * teams. The actor is whoever made the change (plan changes: the caller of the request, if any); an
 * entry about a team or an item belongs to no account's security page (`userId: null`) unless it
 * names a member.
 */
export function registerAuditListeners(ctx: AppContext) {
  const on = ctx.events.on.bind(ctx.events);
  const audit = (input: AuditInput) => record(ctx, input);
  const self = (id: string) => ({ actor: { id }, target: { type: 'user', id } });

  // accounts
  on('user.signedIn', (e) => audit({ action: 'auth.sign_in', ...self(e.data.userId), meta: { provider: e.data.provider } }));
  on('user.signedOut', (e) => audit({ action: 'auth.sign_out', ...self(e.data.userId) }));
  on('user.passwordChanged', (e) => audit({ action: e.data.via === 'reset' ? 'account.password_reset' : 'account.password_change', ...self(e.data.userId) }));
  on('user.emailChanged', (e) => audit({ action: 'account.email_change', ...self(e.data.userId) }));
  on('user.planChanged', (e) => {
    const { source, reason } = e.data.props;
    return audit({ action: 'user.plan_change', target: { type: 'user', id: e.data.user.id }, meta: { from: e.data.from, to: e.data.to, source, reason } });
  });
  on('trash.emptied', (e) => audit({ action: 'trash.empty', ...self(e.data.actorId), meta: { items: e.data.items } }));

  // items
  type Kind = 'project' | 'model' | 'dataset';
  const item = (action: 'item.share' | 'item.delete' | 'item.restore', type: Kind, id: string, actorId: string, meta?: Record<string, unknown>) =>
    audit({ action, actor: { id: actorId }, target: { type, id }, userId: null, ...(meta ? { meta } : {}) });
  on('project.shared', (e) => item('item.share', 'project', e.data.projectId, e.data.actorId, { privacy: e.data.privacy }));
  on('dataset.shared', (e) => item('item.share', 'dataset', e.data.dataset.id, e.data.actorId, { privacy: e.data.privacy }));
  on('model.shared', (e) => item('item.share', 'model', e.data.model.id, e.data.actorId, { privacy: e.data.privacy }));
  on('project.deleted', (e) => item('item.delete', 'project', e.data.projectId, e.data.actorId, { hard: false }));
  on('dataset.deleted', (e) => item('item.delete', 'dataset', e.data.dataset.id, e.data.actorId, { hard: false }));
  on('model.deleted', (e) => item('item.delete', 'model', e.data.model.id, e.data.deletedBy, { hard: e.data.permanent }));
  on('project.restored', (e) => item('item.restore', 'project', e.data.projectId, e.data.actorId));
  on('model.restored', (e) => item('item.restore', 'model', e.data.model.id, e.data.actorId));
  on('dataset.restored', (e) => item('item.restore', 'dataset', e.data.dataset.id, e.data.actorId));
  // dataset versions (ADR 0038)
  const version = (
    action: 'dataset.version_save' | 'dataset.version_delete' | 'dataset.version_restore',
    d: { id: string },
    v: { id: string; number: number },
    actorId: string,
    meta: Record<string, unknown> = {},
  ) => audit({ action, actor: { id: actorId }, target: { type: 'dataset', id: d.id }, userId: null, meta: { version: v.number, versionId: v.id, ...meta } });
  on('dataset.version.saved', (e) => version('dataset.version_save', e.data.dataset, e.data.version, e.data.actorId, { auto: e.data.auto }));
  on('dataset.version.deleted', (e) => version('dataset.version_delete', e.data.dataset, e.data.version, e.data.actorId));
  on('dataset.version.restored', (e) => version('dataset.version_restore', e.data.dataset, e.data.version, e.data.actorId));

  // teams
  const team = (action: AuditInput['action'], e: { data: { teamId: string; actorId: string } }, extra: Partial<AuditInput> = {}) =>
    audit({ action, actor: { id: e.data.actorId }, target: { type: 'team', id: e.data.teamId }, userId: null, ...extra });
  on('team.deleted', (e) => team('team.delete', e));
  on('team.inviteSent', (e) => team('team.invite', e, { meta: { role: e.data.role } }));
  on('team.inviteAccepted', (e) => team('team.invite_accept', e));
  on('team.inviteRejected', (e) => team('team.invite_reject', e));
  on('team.inviteCancelled', (e) => team('team.invite_cancel', e));
  on('team.memberRemoved', (e) => team('team.member_remove', e, { userId: e.data.memberId, meta: { member: e.data.memberId } }));
  on('team.memberRoleChanged', (e) => team('team.member_role', e, { userId: e.data.memberId, meta: { member: e.data.memberId, role: e.data.role } }));
  on('team.ownershipTransferred', (e) => team('team.transfer', e, { meta: { to: e.data.memberId } }));
  on('team.memberLeft', (e) => team('team.leave', e));
  on('team.itemAdded', (e) => team('team.item_add', e, { meta: { kind: e.data.kind, id: e.data.itemId } }));
  on('team.itemRemoved', (e) => team('team.item_remove', e, { meta: { kind: e.data.kind, id: e.data.itemId } }));
}
