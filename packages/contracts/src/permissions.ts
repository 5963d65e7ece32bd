import type { Abilities, Privacy } from './common.js';

/**
 * The one permission matrix (spec §6, ADR 0011): who may do what with a dataset, project, model
 * or team. The server's policies apply it; the web app only sees its result through the
 * `abilities` the server sends (never re-implement it in the browser).
 *
 * Subject — the caller's relation to the item:
 *   owner       the item's owner (for a team: the team's creator/owner)
 *   teamAdmin   admin (or owner) of the team the item belongs to
 *   teamMember  member of that team
 *   teamLabeler labeler of that team: labels and adds images of its datasets (ADR 0039), reads the rest
 *   teamViewer  read-only member of that team
 *   user        any other signed-in user (API keys act with their owner's rights)
 *   anonymous   signed out
 *
 * Visibility — `private`, `unlisted`, `public` are the item's privacy; `team` is a private item
 * that belongs to a team. A team item that is unlisted or public keeps its team rights for
 * members and is visible to everyone else as unlisted or public.
 */
export const SUBJECTS = ['owner', 'teamAdmin', 'teamMember', 'teamLabeler', 'teamViewer', 'user', 'anonymous'] as const;
export type Subject = (typeof SUBJECTS)[number];

export const OBJECT_KINDS = ['dataset', 'project', 'model', 'team'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

export const VISIBILITIES = ['private', 'team', 'unlisted', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * Actions. Three of them change where an item lives (ADR 0023), each its own action so the matrix
 * says who may:
 *   share     its privacy (private / unlisted / public): owner or team admin
 *   move      within its team: to another project of the same team, or out of the team back to its
 *             owner's own items: owner or team admin
 *   transfer  anywhere its team has no say: into another team or into a project outside its team
 *             (a model), and a team's ownership: the owner only
 * and one is about a dataset's content (ADR 0039):
 *   label     a dataset's images and labels: edit labels, add images, pre-label with a model, accept
 *             or reject suggestions; never delete the dataset or its versions (that is `delete`)
 */
export const ACTIONS = [
  'read',
  'list',
  'update',
  'share',
  'move',
  'transfer',
  'delete',
  'restore',
  'train',
  'export',
  'predict',
  'download',
  'invite',
  'remove',
  'label',
] as const;
export type Action = (typeof ACTIONS)[number];

/** Roles stored for team members. */
export const TEAM_ROLES = ['owner', 'admin', 'member', 'labeler', 'viewer'] as const;
export type TeamMemberRole = (typeof TEAM_ROLES)[number];

type Row = Readonly<Record<Visibility, readonly Action[]>>;
type Matrix = Readonly<Record<Subject, Readonly<Record<ObjectKind, Row>>>>;

const NONE: readonly Action[] = [];
/** Everything a team admin can do with a team's dataset, project or model: all but `transfer` (taking it where the team has no say). */
const ITEM_ADMIN: readonly Action[] = ['read', 'list', 'update', 'share', 'move', 'delete', 'restore', 'train', 'export', 'predict', 'download', 'label'];
/** Members work on team items, but neither share, move nor delete them. */
const ITEM_MEMBER: readonly Action[] = ['read', 'list', 'update', 'train', 'export', 'predict', 'download', 'label'];
/** Labelers label a team's datasets (and run its models to pre-label), read the rest, change nothing else. */
const DATASET_LABELER: readonly Action[] = ['read', 'list', 'predict', 'download', 'label'];
/** Read-only: look, run predictions, download. */
const ITEM_READ: readonly Action[] = ['read', 'list', 'predict', 'download'];
/** Unlisted: reachable by id (link), never listed. */
const ITEM_READ_BY_ID: readonly Action[] = ['read', 'predict', 'download'];

const same = (actions: readonly Action[]): Row => ({ private: actions, team: actions, unlisted: actions, public: actions });
/** Team roles only exist on team items; a `private` item has no team, so no team subject applies. */
const teamRow = (actions: readonly Action[]): Row => ({ private: NONE, team: actions, unlisted: actions, public: actions });
const othersRow: Row = { private: NONE, team: NONE, unlisted: ITEM_READ_BY_ID, public: ITEM_READ };
const teamOthersRow: Row = { private: NONE, team: NONE, unlisted: ['read'], public: ['read', 'list'] };

export const PERMISSIONS: Matrix = {
  owner: { dataset: same(ACTIONS), project: same(ACTIONS), model: same(ACTIONS), team: same(ACTIONS) },
  teamAdmin: {
    dataset: teamRow(ITEM_ADMIN),
    project: teamRow(ITEM_ADMIN),
    model: teamRow(ITEM_ADMIN),
    // Admins run the team (edit, invite, remove) but only the owner deletes it or hands it over (transfer).
    team: teamRow(['read', 'list', 'update', 'share', 'restore', 'invite', 'remove']),
  },
  teamMember: { dataset: teamRow(ITEM_MEMBER), project: teamRow(ITEM_MEMBER), model: teamRow(ITEM_MEMBER), team: teamRow(['read', 'list']) },
  teamLabeler: { dataset: teamRow(DATASET_LABELER), project: teamRow(ITEM_READ), model: teamRow(ITEM_READ), team: teamRow(['read', 'list']) },
  teamViewer: { dataset: teamRow(ITEM_READ), project: teamRow(ITEM_READ), model: teamRow(ITEM_READ), team: teamRow(['read', 'list']) },
  user: { dataset: othersRow, project: othersRow, model: othersRow, team: teamOthersRow },
  // Signed out reads what any user reads, and never writes.
  anonymous: { dataset: othersRow, project: othersRow, model: othersRow, team: teamOthersRow },
};

export function can(subject: Subject, kind: ObjectKind, visibility: Visibility, action: Action): boolean {
  return PERMISSIONS[subject][kind][visibility].includes(action);
}

/** An item's visibility in matrix terms: a private item of a team is `team`. */
export function visibilityOf(privacy: Privacy, teamId: string | null | undefined): Visibility {
  return privacy === 'private' && teamId ? 'team' : privacy;
}

/**
 * A team member's subject: on the team itself its owner is `owner`; on the team's items the team
 * owner and admins are `teamAdmin` (the item's own owner stays `owner`).
 */
export function subjectForRole(role: TeamMemberRole, kind: ObjectKind): Subject {
  if (role === 'owner') return kind === 'team' ? 'owner' : 'teamAdmin';
  return role === 'admin' ? 'teamAdmin' : role === 'member' ? 'teamMember' : role === 'labeler' ? 'teamLabeler' : 'teamViewer';
}

/** The `abilities` a response carries for this caller. */
export function abilitiesFor(subject: Subject, kind: ObjectKind, visibility: Visibility): Abilities {
  return {
    canEdit: can(subject, kind, visibility, 'update'),
    canDelete: can(subject, kind, visibility, 'delete'),
    canShare: can(subject, kind, visibility, 'share'),
  };
}

/**
 * Personal records (ADR 0028): addressed to one user, never shared, in no team. Their recipient
 * reads, lists and marks them (`update`); nobody else does, admins included — another user's
 * record answers 404 as if it did not exist.
 */
export const PERSONAL_KINDS = ['notification'] as const;
export type PersonalKind = (typeof PERSONAL_KINDS)[number];
export const PERSONAL_PERMISSIONS: Readonly<Record<PersonalKind, Readonly<Record<'recipient' | 'other', readonly Action[]>>>> = {
  notification: { recipient: ['read', 'list', 'update'], other: NONE },
};
export function canOnPersonal(kind: PersonalKind, isRecipient: boolean, action: Action): boolean {
  return PERSONAL_PERMISSIONS[kind][isRecipient ? 'recipient' : 'other'].includes(action);
}

/**
 * Evaluating a model on a dataset (ADR 0035) needs these actions on both items: reading each is
 * enough (scores and mistakes show nothing a reader cannot already see), and an evaluation is
 * shown to whoever may still read both.
 */
export const EVALUATE_REQUIRES = { model: 'read', dataset: 'read' } as const satisfies Partial<Record<ObjectKind, Action>>;
