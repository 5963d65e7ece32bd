/** Pure pieces of the HUB wire format (hub-protocol.md §5.7–5.9). */

/**
 * HUB checkpoint names: unique and stable, since the client keeps any local file of the same name
 * (hub-protocol §5.9) and the model id in it lets a later local run name its parent (traces README).
 */
export function hubStoredName(modelId: string, kind: 'best' | 'last', epoch: number | null): string {
  return kind === 'best' ? `${modelId}-best.pt` : `${modelId}-last-e${epoch ?? 0}.pt`;
}

/** A multipart text field holding an integer (`epoch`), or null. */
export const intField = (v: string | undefined) => (v !== undefined && /^-?\d{1,6}$/.test(v.trim()) ? Number(v.trim()) : null);

/**
 * Which file a multipart upload carries: `type` (epoch | final) decides, else the file part's name
 * (`last.pt` or `best.pt`). A final upload is the run's best weights.
 */
export const uploadKind = (type: string | undefined, fieldname: string): 'best' | 'last' =>
  type === 'final' ? 'best' : type === 'epoch' ? 'last' : fieldname === 'best.pt' ? 'best' : 'last';
