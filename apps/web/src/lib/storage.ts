/** localStorage / sessionStorage that never throws (private mode, disabled storage). */
function safe(kind: 'localStorage' | 'sessionStorage') {
  const area = (): Storage | null => {
    try {
      return typeof window !== 'undefined' ? window[kind] : null;
    } catch {
      return null;
    }
  };
  return {
    get(key: string): string | null {
      try {
        return area()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key: string, value: string): void {
      try {
        area()?.setItem(key, value);
      } catch {
        /* storage full or disabled: the value is only a convenience */
      }
    },
    remove(key: string): void {
      try {
        area()?.removeItem(key);
      } catch {
        /* ignore */
      }
    },
  };
}

export const local = safe('localStorage');
export const session = safe('sessionStorage');
