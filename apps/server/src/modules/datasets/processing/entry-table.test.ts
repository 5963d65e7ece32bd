import { describe, expect, it } from 'vitest';
import { EntryFlag, EntryTable } from './entry-table.js';

describe('EntryTable (ADR 0042)', () => {
  it('gives back every column as pushed, sizes and offsets past 4 GiB included, growing past its first capacity', () => {
    const table = new EntryTable('tar', 2);
    const big = 5 * 1024 ** 3 + 7;
    const rows = Array.from({ length: 40 }, (_, i) => ({
      name: i === 3 ? 'ds/ünïcödé/猫.jpg' : `ds/images/img${i}.jpg`,
      size: i === 20 ? big : i * 10,
      header: i === 30 ? big + 512 : i * 1024,
    }));
    for (const row of rows) {
      table.writeName(row.name);
      table.push(0, 0, 0, row.size, row.size, row.header, row.header + 512);
    }
    expect(table.count).toBe(40);
    expect(table.toArray().map((e) => [e.position, e.name, e.uncompressedSize, e.compressedSize, e.headerOffset])).toEqual(
      rows.map((r, i) => [i, r.name, r.size, r.size, r.header]),
    );
    expect(table.dataOffset(30)).toBe(big + 1024);
    expect(table.extentEnd(20)).toBe(20 * 1024 + 512 + big);
    expect(table.crc32(0)).toBeNull();
  });

  it('keeps flags, methods and CRCs of a zip listing, and makes an entry object only when asked', () => {
    const table = new EntryTable('zip', 3);
    const bytes = Buffer.from('xxds/a.txt/yy');
    table.writeNameBytes(bytes, 2, 10);
    table.push(EntryFlag.Encrypted, 8, 0xfedcba98, 10, 20, 0);
    table.writeName('ds');
    table.push(EntryFlag.Directory, 0, 0, 0, 0, 100);
    table.writeName('link');
    table.push(EntryFlag.Link, 0, 1, 0, 0, 200);
    expect(table.entry(0)).toEqual({
      position: 0,
      name: 'ds/a.txt',
      isDirectory: false,
      isLink: false,
      encrypted: true,
      compressedSize: 10,
      uncompressedSize: 20,
      compressionMethod: 8,
      crc32: 0xfedcba98,
      headerOffset: 0,
    });
    expect([table.isDirectory(1), table.isLink(2), table.unsupported(2)]).toEqual([true, true, undefined]);
    expect(() => table.entry(3)).toThrow(RangeError);
  });

  it('finds a second file of one name by its bytes, whatever the table grew through', () => {
    const table = new EntryTable('tar', 1);
    const add = (name: string) => {
      table.writeName(name);
      return table.claimName(table.push(0, 0, 0, 0, 0, table.count * 512));
    };
    const names = Array.from({ length: 100 }, (_, i) => `labels/train/${i}.txt`);
    expect(names.map(add)).toEqual(names.map(() => -1));
    expect(add('labels/train/42.txt')).toBe(42);
    expect(add('labels/train/42.tx')).toBe(-1);
    table.seal();
    expect(() => table.claimName(0)).toThrow(/sealed/);
  });

  it('orders positions by header offset, ties in the given order', () => {
    const table = new EntryTable('zip', 4);
    for (const header of [300, 100, 200, 100]) {
      table.writeName(`f${header}`);
      table.push(0, 0, 0, 0, 0, header);
    }
    expect([...table.byHeaderOffset()]).toEqual([1, 3, 2, 0]);
    expect([...table.byHeaderOffset([0, 2])]).toEqual([1, 0]);
  });
});
