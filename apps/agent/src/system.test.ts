import { describe, expect, it } from 'vitest';
import { parseNvidiaSmi, parseYoloVersion } from './system.js';

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
});
