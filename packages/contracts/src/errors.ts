/**
 * The error catalogue: stable codes the server answers with and the web app maps to the spec's
 * messages (spec §8). Adding a code is cheap; renaming one breaks clients.
 */
export const ErrorCode = {
  // generic
  Unknown: 'error/unknown',
  Validation: 'error/validation',
  NotFound: 'error/not-found',
  Unauthorized: 'error/unauthorized',
  Forbidden: 'error/forbidden',
  PayloadTooLarge: 'error/payload-too-large',
  RateLimited: 'error/rate-limited',
  ServerOffline: 'error/server-offline',
  // accounts (spec §5, §8)
  InUse: 'error/in-use',
  NoUserId: 'error/no-user-id',
  UsernameInUse: 'error/username-in-use',
  WrongPassword: 'auth/wrong-password',
  InvalidCredentials: 'auth/invalid-credential',
  WeakPassword: 'auth/weak-password',
  EmailNotVerified: 'auth/email-not-verified',
  InvalidToken: 'auth/invalid-action-code',
  ExpiredToken: 'auth/expired-action-code',
  AccountDeleted: 'auth/account-deleted',
  AccountExistsWithDifferentCredential: 'auth/account-exists-with-different-credential',
  ProviderDisabled: 'auth/operation-not-allowed',
  SameEmail: 'error/same-email',
  InvalidApiKey: 'auth/invalid-api-key',
  GracePeriodOver: 'error/grace-period-over',
  // social sign-in (sent back to the sign-in page as ?error=<code>)
  OAuthInvalidState: 'auth/invalid-state',
  OAuthFailed: 'auth/oauth-failed',
  UnverifiedProviderEmail: 'auth/unverified-provider-email',
  // lifecycle of datasets, models, trash
  ParentDeleted: 'error/parent-deleted',
  NotInTrash: 'error/not-in-trash',
  MissingRequiredProperties: 'error/missing-required-properties',
  FeatureDisabled: 'error/feature-disabled',
  DatasetNotReady: 'error/dataset-not-ready',
  DatasetProcessed: 'error/dataset-processed',
  /** A label write named a revision that is no longer the image's (ADR 0037): the answer carries the current labels. */
  LabelsConflict: 'error/labels-conflict',
  ModelNotReady: 'error/model-not-ready',
  InvalidImage: 'error/invalid-image',
  /** An image sent as SVG that is not an SVG document (spec §8 'Loaded file is not valid SVG'). */
  InvalidSvg: 'error/invalid-svg',
  /** An SVG document that cannot be drawn (spec §8 'Error loading SVG'). */
  SvgLoadFailed: 'error/svg-load-failed',
  InvalidModelFile: 'error/invalid-model-file',
  // training (client protocols and cloud runs)
  TrainingStarted: 'error/training-started',
  TrainingFinished: 'error/training-finished',
  TrainingQueued: 'error/training-queued',
  NotTraining: 'error/not-training',
  CloudTrainingRefused: 'error/cloud-training-refused',
  TaskNotTrainable: 'error/task-not-trainable',
  NoAgent: 'error/no-agent',
  JobFinished: 'error/job-finished',
  JobLost: 'error/job-lost',
  ExportNotFailed: 'error/export-not-failed',
  // inference
  NoWeights: 'error/no-weights',
  NoOnnx: 'error/no-onnx',
  UnsupportedModel: 'error/unsupported-model',
  InferenceFailed: 'error/inference-failed',
  // imports
  NotFailed: 'error/not-failed',
  AlreadyImported: 'error/already-imported',
  // teams (ADR 0008)
  TeamPlanRequired: 'team/plan-required',
  TeamsDisabled: 'team/disabled',
  InviteExpired: 'team/invite-expired',
  InviteUsed: 'team/invite-used',
  AlreadyMember: 'team/already-member',
  LastAdmin: 'team/last-admin',
  // storage and uploads
  InsufficientStorage: 'InsufficientStorageError',
  NoArchiveProvided: 'NoArchiveProvided',
  UploadInterrupted: 'error/upload-interrupted',
  InvalidUploadToken: 'error/invalid-upload-token',
  /** A signed download link past its expiry. */
  Expired: 'error/expired',
  // Roboflow integration (messages are shown as they come; the API key never appears in them)
  RoboflowInvalidKey: 'roboflow/invalid-key',
  RoboflowPublishableKey: 'roboflow/publishable-key',
  RoboflowNotFound: 'roboflow/not-found',
  RoboflowRateLimited: 'roboflow/rate-limited',
  RoboflowUnavailable: 'roboflow/unavailable',
  /** The server has no network path to Roboflow (DNS, refused, timeout): nothing was checked, the key included. */
  RoboflowUnreachable: 'roboflow/unreachable',
  RoboflowUnsupportedType: 'roboflow/unsupported-type',
  RoboflowNoVersions: 'roboflow/no-versions',
  RoboflowNoImages: 'roboflow/no-images',
  RoboflowExportTimeout: 'roboflow/export-timeout',
  RoboflowLinkExpired: 'roboflow/link-expired',
  RoboflowBadArchive: 'roboflow/bad-archive',
  RoboflowNotLinked: 'roboflow/not-linked',
  // plans and billing
  PlanRequired: 'error/plan-required',
  ModelLimit: 'model/limit-reached',
  BillingDisabled: 'billing/disabled',
  InsufficientFunds: 'billing/insufficient-funds',
  SettleExceedsHold: 'billing/settle-exceeds-hold',
  HoldClosed: 'billing/hold-closed',
  PaymentProvider: 'billing/provider-error',
  BadSignature: 'billing/bad-signature',
  /** An upgrade request already granted or dismissed (ADR 0030). */
  UpgradeRequestClosed: 'billing/request-closed',
  /** Asking for a plan the user already has or is above. */
  AlreadyOnPlan: 'billing/already-on-plan',
  // outgoing webhooks (ADR 0016)
  WebhookUrlRefused: 'webhook/url-refused',
  // admin area
  AccountDisabled: 'auth/user-disabled',
  LastSiteAdmin: 'admin/last-admin',
  JobRunning: 'error/job-running',
  // evaluations (ADR 0035)
  NoCommonClasses: 'evaluation/no-common-classes',
  EmptySplit: 'evaluation/empty-split',
  // model-assisted labelling (ADR 0039)
  /** No model class goes to a dataset class (by name or the request's classMap): pre-labelling would propose nothing. */
  NoClassMapped: 'labelling/no-class-mapped',
  /** A classMap entry names a class the model or the dataset does not have. */
  UnknownClass: 'labelling/unknown-class',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Shape of every error body. `message` is safe to show; 5xx never carry internals. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; requestId?: string };
}

/** The spec's user-facing sentences (§8) and the account-deleted alert (§4). */
export const Messages = {
  accountDeleted: 'This account is currently being deleted.',
  networkError: 'The network is experiencing difficulties. Please check your internet connection.',
  somethingWrong: 'Something went wrong. Please try again later.',
  unableCreateUser: 'Unable to Create User',
  unableUpdateUser: 'Unable to Update User',
  inDevelopment: 'This feature is currently in development',
  invalidImage: 'Must be a valid image file!',
  invalidSvg: 'Loaded file is not valid SVG',
  svgLoadFailed: 'Error loading SVG',
  checkingStorage: 'Checking available storage',
  noStorage: 'No storage available',
  filesStillUploading: 'Files still uploading',
  leavePrompt: 'You have uploads in progress, they will be canceled. Are you sure you want to exit?',
  unableCreateDataset: 'Unable to create dataset!',
  unableRestoreDataset: 'Unable to restore dataset',
  unableCreateModel: 'Unable to Create Model',
  unableUpdateModel: 'Unable to Update Model',
  unableDeleteModel: 'Unable to delete model',
  unableRestoreModel: 'Unable to restore model',
  unableUploadModel: 'Unable to upload model...',
  modelUploaded: 'Model uploaded successfully.',
  modelUpdated: 'Model Updated',
  feedbackSubtitle: 'Help us improve by sharing your feedback',
  unableBillingInfo: 'Unable to get billing information',
} as const;
