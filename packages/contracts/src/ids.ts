export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const ID_LENGTH = 20;
export const ID_PATTERN = /^[0-9A-Za-z]{20}$/;
/** `ul_` + 40 lowercase hex (current clients) or `ul` + 40 hex (legacy clients, 42 chars). */
export const API_KEY_PATTERN = /^ul_?[0-9a-f]{40}$/;
export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
