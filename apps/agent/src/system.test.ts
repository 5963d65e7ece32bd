import { describe, expect, it } from 'vitest';
import { interpreterOf, parseNvidiaSmi, parseProbe, parseYoloVersion } from './system.js';

describe('host detection', () => {
  it('reads every GPU from nvidia-smi csv (names may contain commas)', () => {
    expect(parseNvidiaSmi('NVIDIA GeForce RTX 4090, 24564\nNVIDIA A100-SXM4-80GB, 81920\n')).toEqual([
      { name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564 },
      { name: 'NVIDIA A100-SXM4-80GB', memoryMb: 81920 },
    ]);
    expect(parseNvidiaSmi('Tesla T4, rev 2, 15360')).toEqual([{ name: 'Tesla T4, rev 2', memoryMb: 15360 }]);
    expect(parseNvidiaSmi('')).toEqual([]);
  });

  it('takes the version from the last line of `yolo version` (warnings come first)', () => {
    expect(parseYoloVersion('8.4.190\n')).toBe('8.4.190');
    expect(parseYoloVersion('WARNING ⚠️ user config directory is not writeable\n8.3.166')).toBe('8.3.166');
    expect(parseYoloVersion('command not found')).toBeNull();
    expect(parseYoloVersion(null)).toBeNull();
  });

  it('finds the Python behind a yolo launcher from its first line (pip console scripts), nothing else', () => {
    expect(interpreterOf('#!/usr/bin/python3\nimport sys\n')).toEqual(['/usr/bin/python3']);
    expect(interpreterOf('#!/usr/bin/env python3\n')).toEqual(['python3']);
    expect(interpreterOf('#!/home/me/venv/bin/python -u\n')).toEqual(['/home/me/venv/bin/python', '-u']);
    expect(interpreterOf('#!/usr/bin/env node\n')).toBeNull();
    expect(interpreterOf('\x7fELF')).toBeNull();
  });

  it('reads the Platform-protocol probe line among ultralytics warnings', () => {
    expect(parseProbe('WARNING something\nSIGHTLINE_PROBE {"version": "8.4.41", "platform": true}\n')).toEqual({ version: '8.4.41', platform: true });
    expect(parseProbe('SIGHTLINE_PROBE {"version": "8.3.166", "platform": false}')).toEqual({ version: '8.3.166', platform: false });
    expect(parseProbe('SIGHTLINE_PROBE {"version": null, "platform": false, "error": "ModuleNotFoundError: ultralytics"}')).toEqual({
      version: null,
      platform: false,
    });
    expect(parseProbe('Traceback ...')).toBeNull();
    expect(parseProbe(null)).toBeNull();
  });
});
