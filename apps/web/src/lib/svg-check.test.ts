import { Messages } from '@sightline/contracts';
import { describe, expect, it } from 'vitest';
import { checkSvgFile, isSvgFile } from './svg-check';

const file = (text: string, name = 'logo.svg') => new File([text], name, { type: 'image/svg+xml' });
const drawn = async () => undefined;
const refused = async () => {
  throw new Error('cannot draw');
};

describe('SVG images chosen in the browser (spec §8 SVG messages)', () => {
  it('takes a valid SVG', async () => {
    expect(await checkSvgFile(file('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'), drawn)).toBeNull();
  });

  it("says 'Loaded file is not valid SVG' for a file that does not parse as an SVG document", async () => {
    expect(await checkSvgFile(file('<svg xmlns="http://www.w3.org/2000/svg"><rect>'), drawn)).toBe(Messages.invalidSvg);
    expect(await checkSvgFile(file('<html><body>hi</body></html>'), drawn)).toBe(Messages.invalidSvg);
  });

  it("says 'Error loading SVG' when the browser cannot draw it", async () => {
    expect(await checkSvgFile(file('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>'), refused)).toBe(Messages.svgLoadFailed);
  });

  it('knows SVG files by type or name', () => {
    expect(isSvgFile({ name: 'a.svg', type: '' })).toBe(true);
    expect(isSvgFile({ name: 'a.png', type: 'image/svg+xml' })).toBe(true);
    expect(isSvgFile({ name: 'a.png', type: 'image/png' })).toBe(false);
  });
});
