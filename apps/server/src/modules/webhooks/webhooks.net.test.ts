import { describe, expect, it } from 'vitest';
import { isPrivateAddress, resolveTarget, UrlRefused } from './webhooks.net.js';

describe('webhook address guard', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and reserved addresses, in every IPv6 spelling', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '::127.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
  });

  it('lets public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('checks every address a name resolves to, and refuses credentials and other schemes', async () => {
    const resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '192.168.0.10', family: 4 },
    ];
    await expect(resolveTarget('https://hooks.example.test/x', { allowPrivate: false, resolver })).rejects.toThrow(/resolves to 192\.168\.0\.10/);
    await expect(resolveTarget('https://hooks.example.test/x', { allowPrivate: true, resolver })).resolves.toMatchObject({
      addresses: [{ address: '93.184.216.34' }, { address: '192.168.0.10' }],
    });
    await expect(resolveTarget('ftp://93.184.216.34/x', { allowPrivate: false })).rejects.toBeInstanceOf(UrlRefused);
    await expect(resolveTarget('https://user:pw@93.184.216.34/x', { allowPrivate: false })).rejects.toThrow(/Credentials/);
    const gone = resolveTarget('https://gone.example.test/', {
      allowPrivate: false,
      resolver: async () => {
        throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      },
    });
    await expect(gone).rejects.toMatchObject({ transient: true });
  });
});
