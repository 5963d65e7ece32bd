import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts third-party API keys at rest: AES-256-GCM with a key derived (HKDF-SHA256) from the
 * server secret, bound to the owning user as associated data, so a ciphertext copied to another
 * row does not decrypt. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export function secretBox(serverSecret: string, purpose = 'sightline/integrations/api-key') {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'sightline-secret-box', purpose, 32));
  return {
    seal(plain: string, owner: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(owner));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed: string, owner: string): string {
      const [v, iv, tag, ct] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Unreadable stored key');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
