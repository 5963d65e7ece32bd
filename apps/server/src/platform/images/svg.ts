import { ErrorCode, Messages } from '@sightline/contracts';
import { AppError } from '../http/errors.js';
import { sharp } from './sharp.js';

/**
 * SVG images for profiles, projects and teams (spec §3 images, §8 'Loaded file is not valid SVG' /
 * 'Error loading SVG'; ADR 0026). An SVG is never stored or served as SVG: it is checked, its
 * external references are dropped, and it is drawn once into a PNG, so no script, event handler or
 * outside fetch can ever run from an uploaded image, in the browser or here.
 */

/** The longest side of the PNG an SVG becomes (covers, team logos and 256 px profile images). */
export const SVG_RASTER_SIZE = 512;
/** The largest SVG text read at all. */
const SVG_MAX_BYTES = 2 * 1024 * 1024;

/** Declared as SVG, named .svg, or SVG text whatever it claims to be. */
export function isSvgUpload(declaredType: string | undefined, filename: string | undefined, bytes: Buffer): boolean {
  if (declaredType?.toLowerCase() === 'image/svg+xml') return true;
  if (filename && /\.svgz?$/i.test(filename)) return true;
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype\s+svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i.test(textOf(bytes.subarray(0, 4096)));
}

const textOf = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '');
const invalid = () => new AppError(400, ErrorCode.InvalidSvg, Messages.invalidSvg);
const loadFailed = () => new AppError(400, ErrorCode.SvgLoadFailed, Messages.svgLoadFailed);

/**
 * The SVG document as text, or 'Loaded file is not valid SVG': not UTF-8 text with an <svg> root
 * element that is closed, or a DTD with declarations (entity expansion and external entities).
 */
export function checkSvg(bytes: Buffer): string {
  if (bytes.length === 0 || bytes.length > SVG_MAX_BYTES) throw invalid();
  const text = textOf(bytes);
  if (text.includes('\uFFFD') || text.includes('\0')) throw invalid();
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>]*\[/i.test(text)) throw invalid();
  const root = /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;
  if (!root.test(text)) throw invalid();
  if (!/<\/svg\s*>\s*(<!--[\s\S]*?-->\s*)*$/i.test(text) && !/^[^]*?<svg\b[^>]*\/>\s*$/i.test(text)) throw invalid();
  return text;
}

/**
 * The document without what could reach outside or run: <script> and <foreignObject> elements,
 * on* event attributes, and href / xlink:href / src values other than a local `#fragment` or an
 * inline raster `data:image/(png|jpeg|gif|webp)` (so nothing is fetched while drawing).
 */
export function sanitizeSvg(text: string): string {
  return text
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<script\b[^>]*\/>/gi, '')
    .replace(/<foreignObject\b[\s\S]*?<\/foreignObject\s*>/gi, '')
    .replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/\s((?:xlink:)?href|src)\s*=\s*("([^"]*)"|'([^']*)')/gi, (whole, _name: string, _quoted: string, dq?: string, sq?: string) => {
      const value = (dq ?? sq ?? '').trim();
      return value.startsWith('#') || /^data:image\/(png|jpe?g|gif|webp);/i.test(value) ? whole : '';
    })
    .replace(/url\(\s*(['"]?)(?!#)[^)]*\1\s*\)/gi, 'none')
    .replace(/@import[^;]*;?/gi, '');
}

/** The SVG checked, cleaned and drawn as a PNG at most SVG_RASTER_SIZE on its longer side. */
export async function rasterizeSvg(bytes: Buffer): Promise<Buffer> {
  const clean = Buffer.from(sanitizeSvg(checkSvg(bytes)), 'utf8');
  try {
    return await sharp(clean, { limitInputPixels: 4096 * 4096 })
      .resize(SVG_RASTER_SIZE, SVG_RASTER_SIZE, { fit: 'inside' })
      .png()
      .toBuffer();
  } catch {
    throw loadFailed();
  }
}

/** An uploaded image as it is kept: an SVG becomes a PNG; other images pass unchanged. */
export async function intakeImage(file: { bytes: Buffer; contentType: string; filename?: string }): Promise<{ bytes: Buffer; contentType: string }> {
  if (!isSvgUpload(file.contentType, file.filename, file.bytes)) return { bytes: file.bytes, contentType: file.contentType };
  return { bytes: await rasterizeSvg(file.bytes), contentType: 'image/png' };
}
