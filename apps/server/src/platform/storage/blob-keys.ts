/**
 * The blob layout, spelled once (spec §7 file storage): everything a user stores lives under
 * `users/{uid}/`, so a user's bytes can be listed, counted and removed by prefix.
 */
const user = (uid: string) => `users/${uid}`;

export const blobKeys = {
  /** Uploaded archive and everything derived from it: `users/{uid}/datasets/{id}/...` */
  datasetPrefix: (uid: string, datasetId: string) => `${user(uid)}/datasets/${datasetId}/`,
  datasetFile: (uid: string, datasetId: string, file: string) => `${user(uid)}/datasets/${datasetId}/${file}`,
  datasetThumbs: (uid: string, datasetId: string) => `${user(uid)}/datasets/${datasetId}/thumbs/`,
  datasetNormalized: (uid: string, datasetId: string) => `${user(uid)}/datasets/${datasetId}/normalized/`,
  /** Weights, checkpoints and exports of a model: `users/{uid}/models/{id}/...` */
  modelPrefix: (uid: string, modelId: string) => `${user(uid)}/models/${modelId}/`,
  modelFile: (uid: string, modelId: string, file: string) => `${user(uid)}/models/${modelId}/${file}`,
  /** Cover images: `users/{uid}/projects/{id}`, `users/{uid}/teams/{id}` */
  projectImage: (uid: string, projectId: string) => `${user(uid)}/projects/${projectId}`,
  teamImage: (uid: string, teamId: string) => `${user(uid)}/teams/${teamId}`,
  profileImage: (uid: string, file: string) => `${user(uid)}/profile/${file}`,
  /** Content-addressed image bytes of one owner (ADR 0037): `blobs/{u:uid|t:teamId}/sha256/{aa}/{hash}`. */
  datasetBlob: (ownerKey: string, sha256: string) => `blobs/${ownerKey}/sha256/${sha256.slice(0, 2)}/${sha256}`,

  /** `users/{uid}/datasets/{id}/{file}` (one file directly in the dataset's folder), else null. */
  parseDatasetFile(key: string): { uid: string; datasetId: string; file: string } | null {
    const m = /^users\/([^/]+)\/datasets\/([^/]+)\/([^/]+)$/.exec(key);
    return m ? { uid: m[1]!, datasetId: m[2]!, file: m[3]! } : null;
  },
  /** The model id of any key under a model's folder, else null. */
  modelIdOf: (key: string): string | null => /^users\/[^/]+\/models\/([^/]+)\//.exec(key)?.[1] ?? null,
  /** The project id of a project's cover image key, else null. */
  projectIdOf: (key: string): string | null => /^users\/[^/]+\/projects\/([^/]+)$/.exec(key)?.[1] ?? null,
  /** The team id of a team's image key, else null. */
  teamIdOf: (key: string): string | null => /^users\/[^/]+\/teams\/([^/]+)$/.exec(key)?.[1] ?? null,
  /** The dataset id of any key under a dataset's folder, else null. */
  datasetIdOf: (key: string): string | null => /^users\/[^/]+\/datasets\/([^/]+)\//.exec(key)?.[1] ?? null,
};
