import { accessVersion } from '../../platform/security/signing.js';

/**
 * The access version links to an item's files carry (issue 16): privacy, team and trash state.
 * Projects cascade privacy and trash to their models, so a model's own row says enough.
 */
export const linkVersionOf = (row: { privacy: string; teamId?: string | null; deletedAt?: Date | null }) => accessVersion([row.privacy, row.teamId ?? null, row.deletedAt ? 1 : 0]);
