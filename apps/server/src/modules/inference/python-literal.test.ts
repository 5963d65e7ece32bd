import { describe, expect, it } from 'vitest';
import { parsePythonLiteral, PythonLiteralError, pyToJson } from './python-literal.js';

describe('parsePythonLiteral', () => {
  it('parses the dict ultralytics writes for names, keeping integer keys', () => {
    const v = parsePythonLiteral("{0: 'red_square', 1: 'green_circle', 2: 'blue_triangle'}");
    expect(v).toBeInstanceOf(Map);
    const m = v as Map<unknown, unknown>;
    expect([...m.keys()]).toEqual([0, 1, 2]);
    expect(m.get(1)).toBe('green_circle');
    expect(m.get('1')).toBeUndefined();
  });

  it('parses export args with booleans, ints and None', () => {
    const v = parsePythonLiteral("{'batch': 1, 'half': False, 'dynamic': True, 'simplify': False, 'opset': 17, 'nms': False, 'x': None}");
    expect(pyToJson(v)).toEqual({ batch: 1, half: false, dynamic: true, simplify: false, opset: 17, nms: false, x: null });
  });

  it('parses lists, tuples, nesting and trailing commas', () => {
    expect(parsePythonLiteral('[160, 160]')).toEqual([160, 160]);
    expect(parsePythonLiteral('(17, 3)')).toEqual([17, 3]);
    expect(parsePythonLiteral('(1,)')).toEqual([1]);
    expect(parsePythonLiteral('()')).toEqual([]);
    expect(parsePythonLiteral('(5)')).toBe(5);
    expect(parsePythonLiteral('[1, [2, (3, 4)], {}, ]')).toEqual([1, [2, [3, 4]], new Map()]);
    expect(pyToJson(parsePythonLiteral("{'a': {'b': [1, 2,]}, }"))).toEqual({ a: { b: [1, 2] } });
  });

  it('parses numbers the way Python does', () => {
    expect(parsePythonLiteral('32')).toBe(32);
    expect(parsePythonLiteral('-7')).toBe(-7);
    expect(parsePythonLiteral('- -7')).toBe(7);
    expect(parsePythonLiteral('0.25')).toBe(0.25);
    expect(parsePythonLiteral('.5')).toBe(0.5);
    expect(parsePythonLiteral('5.')).toBe(5);
    expect(parsePythonLiteral('1e-3')).toBe(0.001);
    expect(parsePythonLiteral('-2.5E+2')).toBe(-250);
    expect(parsePythonLiteral('1_000')).toBe(1000);
    expect(parsePythonLiteral('0x1F')).toBe(31);
    expect(parsePythonLiteral('0o17')).toBe(15);
    expect(parsePythonLiteral('0b101')).toBe(5);
  });

  it('parses both quote styles with escapes, prefixes and implicit concatenation', () => {
    expect(parsePythonLiteral(`"it's"`)).toBe("it's");
    expect(parsePythonLiteral(`'say "hi"'`)).toBe('say "hi"');
    expect(parsePythonLiteral(String.raw`'a\'b\\c\n\t\x41\u00e9\U0001F600'`)).toBe("a'b\\c\n\tAé😀");
    expect(parsePythonLiteral(String.raw`'\101'`)).toBe('A');
    expect(parsePythonLiteral(String.raw`'\d'`)).toBe('\\d');
    expect(parsePythonLiteral(String.raw`r'\d\n'`)).toBe('\\d\\n');
    expect(parsePythonLiteral(`u'x' "y"  'z'`)).toBe('xyz');
    expect(parsePythonLiteral(`'''a'b\nc'''`)).toBe("a'b\nc");
    expect(parsePythonLiteral(`'héllo 猫'`)).toBe('héllo 猫');
  });

  it('parses True/False/None and sets', () => {
    expect(parsePythonLiteral('True')).toBe(true);
    expect(parsePythonLiteral('False')).toBe(false);
    expect(parsePythonLiteral('None')).toBeNull();
    expect(parsePythonLiteral('{1, 2, 3}')).toEqual([1, 2, 3]);
    expect(parsePythonLiteral('{1,}')).toEqual([1]);
  });

  it('keeps Python key types distinct', () => {
    const m = parsePythonLiteral("{1: 'int', '1': 'str', True: 't', None: 'n'}") as Map<unknown, unknown>;
    expect(m.get(1)).toBe('int');
    expect(m.get('1')).toBe('str');
    expect(m.get(true)).toBe('t');
    expect(m.get(null)).toBe('n');
  });

  it.each([
    ['', /end of input/],
    ['{0: ', /end of input/],
    ["{0: 'a' 1: 'b'}", /Expected ","/],
    ['[1, 2', /Expected/],
    ["'abc", /Unterminated/],
    ["'a\nb'", /Newline/],
    ['true', /name "true"/],
    ['os.system("x")', /name "os"/],
    ['1j', /Unsupported numeric/],
    ['[1] 2', /Unexpected "2"/],
    ['{[1]: 2}', /Unsupported dict key/],
    ['-', /Invalid number/],
    ["'\\x4'", /Invalid escape/],
  ])('rejects %j', (src, message) => {
    expect(() => parsePythonLiteral(src)).toThrow(PythonLiteralError);
    expect(() => parsePythonLiteral(src)).toThrow(message);
  });

  it('rejects absurd nesting instead of overflowing the stack', () => {
    expect(() => parsePythonLiteral('['.repeat(5000) + ']'.repeat(5000))).toThrow(/Nesting too deep/);
  });
});
