import { Messages } from '@sightline/contracts';

/** Named or typed as SVG (spec §8's SVG messages apply to these). */
export const isSvgFile = (file: Pick<File, 'name' | 'type'>) => file.type === 'image/svg+xml' || /\.svgz?$/i.test(file.name);

/**
 * Spec §8: 'Loaded file is not valid SVG' when the file does not parse as an SVG document;
 * 'Error loading SVG' when it parses but the browser cannot draw it. Null when it is fine.
 * The server checks again and keeps a PNG of it (platform/images/svg.ts).
 */
export async function checkSvgFile(file: File, load: (url: string) => Promise<void> = loadImage): Promise<string | null> {
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return Messages.invalidSvg;
  }
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.getElementsByTagName('parsererror').length > 0 || doc.documentElement?.localName !== 'svg') return Messages.invalidSvg;
  try {
    await load(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`);
    return null;
  } catch {
    return Messages.svgLoadFailed;
  }
}

function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });
}

function loadImage(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => (img.naturalWidth > 0 || img.width > 0 ? resolve() : reject(new Error('empty')));
    img.onerror = () => reject(new Error('error'));
    img.src = url;
  });
}
