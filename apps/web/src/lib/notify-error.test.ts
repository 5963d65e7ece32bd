import { ErrorCode, Messages } from '@sightline/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage } from './i18n';
import { notifications } from './notifications';
import { notifyError } from './notify-error';

describe('the spec §8 sentences for server codes (docs/spec-mapping.md)', () => {
  afterEach(() => notifications.reset());

  it("shows 'This feature is currently in development' for a feature its remote-config flag keeps off", () => {
    notifyError(new ApiError(403, ErrorCode.FeatureDisabled, 'Dedicated inference is not enabled on this server'));
    const [shown] = notifications.store.getState().active;
    expect(shown).toMatchObject({ type: 'error', message: Messages.inDevelopment });
  });

  it("shows 'Loaded file is not valid SVG' and 'Error loading SVG' for a refused SVG image", () => {
    expect(errorMessage(ErrorCode.InvalidSvg, 'x')).toBe(Messages.invalidSvg);
    expect(errorMessage(ErrorCode.SvgLoadFailed, 'x')).toBe(Messages.svgLoadFailed);
  });
});
