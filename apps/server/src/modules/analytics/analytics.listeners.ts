import type { AppContext } from '../../context.js';
import { track } from './analytics.service.js';

/**
 * Analytics (spec §1) from domain events (ADR 0031): the one place that maps business changes to
 * analytics event names (audit entries: audit.listeners.ts).
 */
export function registerAnalyticsListeners(ctx: AppContext) {
  const on = ctx.events.on.bind(ctx.events);

  on('user.signedUp', (e) => track(ctx, e.data.userId, 'sign_up', { provider: e.data.provider }));
  on('user.signedIn', (e) => track(ctx, e.data.userId, 'sign_in', { provider: e.data.provider }));
  on('user.signedOut', (e) => track(ctx, e.data.userId, 'sign_out'));
  on('user.passwordChanged', (e) => track(ctx, e.data.userId, 'update_password', e.data.via ? { via: e.data.via } : {}));
  on('user.emailChanged', (e) => track(ctx, e.data.userId, 'update_profile', { fields: ['email'] }));
  on('user.profileUpdated', (e) => track(ctx, e.data.user.id, 'update_profile', { fields: e.data.fields }));
  on('user.planChanged', (e) => track(ctx, e.data.user.id, 'update_plan', { from: e.data.from, to: e.data.to, ...e.data.props }));

  on('project.created', (e) => track(ctx, e.data.actorId, 'create_project', { projectId: e.data.projectId }));
  on('project.updated', (e) => track(ctx, e.data.actorId, 'update_project', { projectId: e.data.projectId }));
  on('project.shared', (e) => track(ctx, e.data.actorId, 'share_project', { projectId: e.data.projectId, privacy: e.data.privacy }));
  on('project.archived', (e) => track(ctx, e.data.actorId, 'update_project', { projectId: e.data.projectId, archived: e.data.archived }));
  on('project.deleted', (e) => track(ctx, e.data.actorId, 'delete_project', { projectId: e.data.projectId }));

  on('dataset.created', (e) => track(ctx, e.data.actorId, 'create_dataset', { datasetId: e.data.dataset.id, task: e.data.task }));
  on('dataset.updated', (e) => track(ctx, e.data.actorId, 'update_dataset', { datasetId: e.data.dataset.id }));
  on('dataset.shared', (e) => track(ctx, e.data.actorId, 'share_dataset', { datasetId: e.data.dataset.id, privacy: e.data.privacy }));
  on('dataset.archived', (e) => track(ctx, e.data.actorId, 'update_dataset', { datasetId: e.data.dataset.id, archived: e.data.archived }));
  on('dataset.deleted', (e) => track(ctx, e.data.actorId, 'delete_dataset', { datasetId: e.data.dataset.id }));

  on('model.created', (e) => track(ctx, e.data.actorId, 'create_model', { modelId: e.data.model.id }));
  on('model.updated', (e) => track(ctx, e.data.actorId, 'update_model', { modelId: e.data.model.id }));
  on('model.shared', (e) => track(ctx, e.data.actorId, 'share_model', { modelId: e.data.model.id, privacy: e.data.privacy }));
  on('model.archived', (e) => track(ctx, e.data.actorId, 'update_model', { modelId: e.data.model.id, archived: e.data.archived }));
  on('model.deleted', (e) => track(ctx, e.data.deletedBy, 'delete_model', { modelId: e.data.model.id, hard: e.data.permanent }));
  on('evaluation.started', (e) =>
    track(ctx, e.data.actorId, 'evaluate_model', {
      modelId: e.data.modelId,
      datasetId: e.data.datasetId,
      split: e.data.split,
      evaluationId: e.data.evaluationId,
    }),
  );
  on('dataset.prelabel.started', (e) =>
    track(ctx, e.data.actorId, 'prelabel_dataset', { datasetId: e.data.datasetId, modelId: e.data.modelId, jobId: e.data.jobId, images: e.data.total }),
  );
  on('dataset.suggestions.accepted', (e) => track(ctx, e.data.actorId, 'accept_suggestions', { datasetId: e.data.datasetId, rows: e.data.rows }));
  on('dataset.suggestions.rejected', (e) => track(ctx, e.data.actorId, 'reject_suggestions', { datasetId: e.data.datasetId, rows: e.data.rows }));
  on('model.inferred', (e) => track(ctx, e.data.actorId, 'infer_model', { modelId: e.data.modelId, via: e.data.via }));
  on('export.requested', (e) => track(ctx, e.data.actorId, 'export_model', { modelId: e.data.modelId, format: e.data.format, auto: e.data.auto }));

  on('trash.emptied', (e) => track(ctx, e.data.actorId, 'empty_trash', { items: e.data.items }));

  on('team.created', (e) => track(ctx, e.data.actorId, 'create_team', { teamId: e.data.teamId }));
  on('team.updated', (e) => track(ctx, e.data.actorId, 'update_team', { teamId: e.data.teamId }));
  on('team.deleted', (e) => track(ctx, e.data.actorId, 'delete_team', { teamId: e.data.teamId }));
  on('team.inviteSent', (e) => track(ctx, e.data.actorId, 'send_team_invite', { teamId: e.data.teamId, role: e.data.role }));
  on('team.inviteAccepted', (e) => track(ctx, e.data.actorId, 'accept_team_invite', { teamId: e.data.teamId }));
  on('team.inviteRejected', (e) => track(ctx, e.data.actorId, 'reject_team_invite', { teamId: e.data.teamId }));
  on('team.inviteCancelled', (e) => track(ctx, e.data.actorId, 'cancel_team_invite', { teamId: e.data.teamId }));
  on('team.memberRemoved', (e) => track(ctx, e.data.actorId, 'remove_team_member', { teamId: e.data.teamId, member: e.data.memberId }));
  on('team.memberLeft', (e) => track(ctx, e.data.actorId, 'leave_team', { teamId: e.data.teamId }));
  on('team.ownershipTransferred', (e) => track(ctx, e.data.actorId, 'transfer_team', { teamId: e.data.teamId, to: e.data.memberId }));
  on('team.memberRoleChanged', (e) => track(ctx, e.data.actorId, 'update_team_member', { teamId: e.data.teamId, role: e.data.role, member: e.data.memberId }));
  on('team.itemAdded', (e) => track(ctx, e.data.actorId, 'add_team_item', { teamId: e.data.teamId, kind: e.data.kind, id: e.data.itemId }));
  on('team.itemRemoved', (e) => track(ctx, e.data.actorId, 'remove_team_item', { teamId: e.data.teamId, kind: e.data.kind, id: e.data.itemId }));
}
