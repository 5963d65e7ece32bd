import type { RemoteConfig, User } from './users.js';

/**
 * The domain event catalogue (ADR 0031): one event per business change, its name and the shape of
 * its data. Services emit them (`ctx.events.emit(name, ownerId, data)`); listeners owned by modules
 * turn them into realtime messages, analytics, audit entries, webhooks and notifications. Events
 * emitted inside a transaction reach listeners after it commits.
 *
 * `ownerId` (beside the data) is the user whose item changed. `actorId` in the data is whoever made
 * the change (the analytics event's user). The webhook events (WEBHOOK_EVENTS in webhooks.ts) are a
 * subset of this catalogue: their data is exactly the `data` of a delivery's body.
 *
 * Data types are inline object types (not interfaces) so that every one is a `Record<string, unknown>`.
 */
export interface DomainEventCatalog {
  // ---- accounts ---------------------------------------------------------------------------------
  'user.signedUp': { userId: string; provider: string };
  'user.signedIn': { userId: string; provider: string };
  'user.signedOut': { userId: string };
  /** by the user (`via` absent) or through a reset link (`via: 'reset'`) */
  'user.passwordChanged': { userId: string; via?: 'reset' };
  'user.emailChanged': { userId: string };
  /** profile fields or picture; `user` is the account as its owner sees it */
  'user.profileUpdated': { user: User; fields: string[] };
  /** the account was deleted (by its owner or an admin) */
  'user.deleted': { userId: string };
  /** `props` say where the change came from (stripe subscription or event, an admin and the reason) */
  'user.planChanged': { user: User; from: string; to: string; props: Record<string, unknown> };
  /** a socket of the user opened or closed */
  'presence.changed': { userId: string };
  'flags.updated': { flags: RemoteConfig['flags'] };

  // ---- projects, datasets, models -----------------------------------------------------------------
  'project.created': { projectId: string; actorId: string };
  'project.updated': { projectId: string; actorId: string };
  'project.shared': { projectId: string; actorId: string; privacy: string };
  'project.archived': { projectId: string; actorId: string; archived: boolean };
  'project.deleted': { projectId: string; actorId: string };
  'project.restored': { projectId: string; actorId: string };

  'dataset.created': { dataset: DatasetState; actorId: string; task: string };
  'dataset.updated': { dataset: DatasetState; actorId: string };
  'dataset.shared': { dataset: DatasetState; actorId: string; privacy: string };
  'dataset.archived': { dataset: DatasetState; actorId: string; archived: boolean };
  'dataset.deleted': { dataset: DatasetState; actorId: string };
  /** the first upload token of a new dataset (status Uploading) */
  'dataset.uploadStarted': { dataset: DatasetState; actorId: string };
  /** its archive arrived and is stored */
  'dataset.uploaded': { dataset: DatasetState; actorId: string };
  /** processing queued (status Loading, or Retrying after a failure) */
  'dataset.processingRequested': { dataset: DatasetState; actorId: string; retry: boolean };
  /**
   * `dataset.status` is absent when restored from the trash, which knows only the id: then only the
   * owner's dataset list hears it (as before ADR 0031)
   */
  'dataset.restored': { dataset: { id: string; status?: string }; actorId: string };
  /** processing advanced (not a business change: realtime only, emitted without waiting) */
  'dataset.progress': { datasetId: string; phase: string; done: number; total: number };
  /** an edit of a dataset's working state (ADR 0037) took edit sequence number `seq`; a webhook event */
  'dataset.edited': { datasetId: string; seq: number; kind: DatasetEditKind; counts: Record<string, number>; actorId: string };
  /** one image's labels were written (revision is the new label revision) */
  'dataset.labels.updated': { datasetId: string; imageId: string; revision: number; seq: number; actorId: string };
  /** webhook: processing ended with a ready dataset */
  'dataset.processed': { dataset: WebhookDataset };
  /** webhook: processing ended with an error */
  'dataset.failed': { dataset: WebhookDataset; error: string | null };

  'model.created': { model: ModelState; actorId: string };
  'model.updated': { model: ModelState; actorId: string };
  'model.shared': { model: ModelState; actorId: string; privacy: string };
  'model.archived': { model: ModelState; actorId: string; archived: boolean };
  /** moved to another project */
  'model.moved': { model: ModelState; actorId: string };
  /** webhook: moved to the trash (`permanent: false`) or removed for good */
  'model.deleted': { model: ModelRef; permanent: boolean; deletedBy: string };
  'model.restored': { model: ModelState; actorId: string };
  /** one prediction answered (`actorId` null for anonymous calls on public models) */
  'model.inferred': { modelId: string; actorId: string | null; via: string };
  /** a dedicated endpoint of the model is running (or failed to start: then the start threw, no event) */
  'endpoint.started': { endpointId: string; modelId: string };
  'endpoint.stopped': { endpointId: string; modelId: string };
  /** webhook */
  'model.exported': { model: { id: string }; export: { id: string; format: string; bytes: number | null; fileName: string | null } };

  // ---- training (webhooks) -----------------------------------------------------------------------
  'training.started': { model: ModelRef; protocol: string };
  'training.epoch': { model: ModelRef; epoch: number; epochsDone: number; metrics: Record<string, number>; final: boolean };
  'training.completed': { model: ModelRef; outcome: string; bestMetrics: Record<string, number> | null; epochsDone: number };
  'training.failed': { model: { id: string }; cloud: boolean; error: string | null };
  /** a run's state or the model's training dates, status or files changed (realtime: the model's page and its owner's list refetch) */
  'training.runChanged': { model: ModelState };
  /** epochs stored (realtime: the charts refetch; `final`: the run's final metrics came with them) */
  'training.metricsRecorded': { model: ModelState; epochs: number[]; final: boolean };
  /** a console chunk stored (realtime: the console reads on) */
  'training.consoleAppended': { model: ModelState; chunkId: number };

  // ---- agents and exports --------------------------------------------------------------------------
  /** a cloud run or an export of the model changed (realtime: the model's page refetches them) */
  'model.jobsChanged': { modelId: string };
  'export.requested': { modelId: string; actorId: string; format: string; auto: boolean };

  // ---- trash ---------------------------------------------------------------------------------------
  'trash.emptied': { actorId: string; items: number };

  // ---- teams ---------------------------------------------------------------------------------------
  'team.created': { teamId: string; actorId: string };
  'team.updated': { teamId: string; actorId: string };
  'team.imageChanged': { teamId: string; actorId: string };
  /** `memberIds`: the members when it was deleted (they lose access) */
  'team.deleted': { teamId: string; actorId: string; memberIds: string[] };
  /** `inviteeId`: the account of the invited address, if it has one */
  'team.inviteSent': { teamId: string; teamName: string; actorId: string; inviteId: string; role: string; inviteeId: string | null };
  'team.inviteAccepted': { teamId: string; actorId: string };
  'team.inviteRejected': { teamId: string; actorId: string };
  'team.inviteCancelled': { teamId: string; actorId: string; inviteeId: string | null };
  'team.memberRemoved': { teamId: string; actorId: string; memberId: string };
  'team.memberLeft': { teamId: string; actorId: string };
  'team.memberRoleChanged': { teamId: string; actorId: string; memberId: string; role: string };
  /** ownership handed to `memberId` (the previous owner stays as admin) */
  'team.ownershipTransferred': { teamId: string; actorId: string; memberId: string };
  /** an item entered the team; `modelIds`: the models that came with a project */
  'team.itemAdded': { teamId: string; actorId: string; kind: 'dataset' | 'project' | 'model'; itemId: string; modelIds: string[] };
  'team.itemRemoved': { teamId: string; actorId: string; kind: 'dataset' | 'project' | 'model'; itemId: string; modelIds: string[] };
  /** an evaluation of a model on a dataset split was queued (ADR 0035) */
  'evaluation.started': { evaluationId: string; modelId: string; datasetId: string; split: string; actorId: string };
  /** an evaluation changed status (queued, running, completed, failed, cancelled) */
  'evaluation.updated': { evaluationId: string; modelId: string; status: string };
  /** an evaluation scored more images */
  'evaluation.progress': { evaluationId: string; modelId: string; done: number; total: number };
  /** an evaluation completed, with its headline numbers (a webhook event) */
  'model.evaluated': {
    evaluation: { id: string; split: string; task: string; images: number; overall: Record<string, number> };
    model: { id: string };
    dataset: { id: string };
  };
  /** a user asked the admins for a plan while billing is off (ADR 0030); the admins' bells count it */
  'support.upgradeRequested': { requestId: string; userId: string; username: string; plan: string };
  /** a notification record of the user was created or marked read (ADR 0028): the bell's count changed */
  'notifications.changed': { userId: string };
}

export type DomainEventName = keyof DomainEventCatalog;
export type DomainEventData<N extends DomainEventName> = DomainEventCatalog[N];

/** The edits of a dataset's working state (ADR 0037). */
export type DatasetEditKind =
  'images.add' | 'images.move' | 'images.copy' | 'images.delete' | 'classes.rename' | 'classes.merge' | 'classes.delete' | 'labels.update';
/** A dataset's id and processing status (what its realtime messages carry). */
export type DatasetState = { id: string; status: string };
/** A model's id and project (what its realtime messages carry). */
export type ModelState = { id: string; projectId: string | null };
/** A model as webhook receivers see it. */
export type ModelRef = { id: string; name: string; slug: string; projectId: string | null };
/** A dataset as webhook receivers see it. */
export type WebhookDataset = { id: string; name: string; slug: string; task: string; status: string };
