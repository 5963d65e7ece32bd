/**
 * A parser for the subset of Python literal syntax that `ast.literal_eval` accepts and that ultralytics writes into
 * ONNX `metadata_props` via `str(value)`: dicts, lists, tuples, sets, strings, ints, floats, True/False/None.
 *
 * Dicts become `Map`s because Python keys are typed (`{0: 'a'}` and `{'0': 'a'}` are different dicts) and JSON
 * objects would silently merge them. Use {@link pyToJson} when a plain object is more convenient.
 */

export type PyKey = string | number | boolean | null;
export type PyValue = PyKey | PyValue[] | Map<PyKey, PyValue>;

export class PythonLiteralError extends Error {
  constructor(
    message: string,
    public readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'PythonLiteralError';
  }
}

/** Deep enough for any real metadata, shallow enough that hostile input cannot blow the JS stack. */
const MAX_DEPTH = 100;

export function parsePythonLiteral(source: string): PyValue {
  const parser = new Parser(source);
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (!parser.atEnd()) throw new PythonLiteralError(`Unexpected ${JSON.stringify(parser.peek())}`, parser.pos);
  return value;
}

/** Converts to JSON-compatible data: dicts become objects with stringified keys, tuples and sets become arrays. */
export function pyToJson(value: PyValue): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = pyToJson(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(pyToJson);
  return value;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '', // backslash-newline is a line continuation inside a string
};

class Parser {
  pos = 0;
  constructor(private readonly src: string) {}

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  peek(): string {
    return this.src[this.pos] ?? '';
  }

  skipWhitespace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private expect(ch: string): void {
    this.skipWhitespace();
    if (this.src[this.pos] !== ch) {
      throw new PythonLiteralError(`Expected ${JSON.stringify(ch)} but found ${this.atEnd() ? 'end of input' : JSON.stringify(this.peek())}`, this.pos);
    }
    this.pos++;
  }

  parseValue(depth: number): PyValue {
    if (depth > MAX_DEPTH) throw new PythonLiteralError('Nesting too deep', this.pos);
    this.skipWhitespace();
    const ch = this.peek();
    if (ch === '') throw new PythonLiteralError('Unexpected end of input', this.pos);
    if (ch === '{') return this.parseBraces(depth);
    if (ch === '[') return this.parseSequence('[', ']', depth);
    if (ch === '(') return this.parseParens(depth);
    if (ch === '-' || ch === '+' || ch === '.' || (ch >= '0' && ch <= '9')) return this.parseNumber();
    if (this.isStringStart()) return this.parseStrings();
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos))?.[0];
    if (word === 'True') return this.advance(word, true);
    if (word === 'False') return this.advance(word, false);
    if (word === 'None') return this.advance(word, null);
    throw new PythonLiteralError(`Unexpected ${word ? `name ${JSON.stringify(word)}` : JSON.stringify(ch)}`, this.pos);
  }

  private advance<T>(word: string, value: T): T {
    this.pos += word.length;
    return value;
  }

  /** Parses comma-separated items up to `close`, allowing the trailing comma Python allows. */
  private parseItems<T>(close: string, parseItem: () => T): { items: T[]; sawComma: boolean } {
    const items: T[] = [];
    let sawComma = false;
    this.skipWhitespace();
    while (this.peek() !== close) {
      items.push(parseItem());
      this.skipWhitespace();
      if (this.peek() === ',') {
        this.pos++;
        sawComma = true;
        this.skipWhitespace();
      } else if (this.peek() !== close) {
        throw new PythonLiteralError(`Expected "," or ${JSON.stringify(close)}`, this.pos);
      }
    }
    this.pos++;
    return { items, sawComma };
  }

  private parseSequence(open: string, close: string, depth: number): PyValue[] {
    this.expect(open);
    return this.parseItems(close, () => this.parseValue(depth + 1)).items;
  }

  private parseParens(depth: number): PyValue {
    this.expect('(');
    const { items, sawComma } = this.parseItems(')', () => this.parseValue(depth + 1));
    // `(x)` is just a parenthesised value; only a comma (or `()`) makes a tuple.
    if (items.length === 1 && !sawComma) return items[0];
    return items;
  }

  private parseBraces(depth: number): PyValue {
    this.expect('{');
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.pos++;
      return new Map();
    }
    const firstPos = this.pos;
    const first = this.parseValue(depth + 1);
    this.skipWhitespace();
    if (this.peek() !== ':') {
      // A set literal; there is no JS equivalent that keeps Python equality, so it becomes an array.
      const rest = this.continueItems('}', depth);
      return [first, ...rest];
    }
    const map = new Map<PyKey, PyValue>();
    const addEntry = (key: PyValue, keyPos: number) => {
      if (key !== null && typeof key === 'object') throw new PythonLiteralError('Unsupported dict key type', keyPos);
      this.expect(':');
      map.set(key, this.parseValue(depth + 1));
    };
    addEntry(first, firstPos);
    this.continueItems('}', depth, () => {
      this.skipWhitespace();
      const keyPos = this.pos;
      addEntry(this.parseValue(depth + 1), keyPos);
    });
    return map;
  }

  /** After the first item of a braced literal: either the closing brace or `, item`... */
  private continueItems(close: string, depth: number, parseItem?: () => void): PyValue[] {
    const items: PyValue[] = [];
    this.skipWhitespace();
    if (this.peek() === close) {
      this.pos++;
      return items;
    }
    this.expect(',');
    this.parseItems(close, () => {
      if (parseItem) parseItem();
      else items.push(this.parseValue(depth + 1));
    });
    return items;
  }

  private parseNumber(): number {
    const start = this.pos;
    let sign = 1;
    // literal_eval accepts any run of unary signs, e.g. `- -1`.
    while (this.peek() === '-' || this.peek() === '+') {
      if (this.peek() === '-') sign = -sign;
      this.pos++;
      this.skipWhitespace();
    }
    const rest = this.src.slice(this.pos);
    const radix = /^0([xob])[0-9a-f_]+/i.exec(rest);
    if (radix) {
      const base = { x: 16, o: 8, b: 2 }[radix[1].toLowerCase() as 'x' | 'o' | 'b'];
      const digits = radix[0].slice(2).replaceAll('_', '');
      const value = Number.parseInt(digits, base);
      if (Number.isNaN(value) || digits.length === 0) throw new PythonLiteralError('Invalid number', start);
      this.pos += radix[0].length;
      return sign * value;
    }
    const dec = /^(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?/.exec(rest);
    const text = dec?.[0] ?? '';
    if (!/\d/.test(text.replace(/[eE].*$/, ''))) throw new PythonLiteralError('Invalid number', start);
    const next = this.src[this.pos + text.length];
    if (next !== undefined && /[A-Za-z_]/.test(next)) {
      // Complex (`1j`) and anything else glued to a number are outside what ultralytics writes.
      throw new PythonLiteralError('Unsupported numeric literal', start);
    }
    this.pos += text.length;
    return sign * Number(text.replaceAll('_', ''));
  }

  private isStringStart(): boolean {
    return /^(?:[rRuUbB]|[rR][bB]|[bB][rR])?['"]/.test(this.src.slice(this.pos, this.pos + 3));
  }

  /** Adjacent string literals concatenate, as in Python. */
  private parseStrings(): string {
    let out = this.parseString();
    for (;;) {
      const save = this.pos;
      this.skipWhitespace();
      if (!this.isStringStart()) {
        this.pos = save;
        return out;
      }
      out += this.parseString();
    }
  }

  private parseString(): string {
    const start = this.pos;
    let raw = false;
    while (/[rRuUbB]/.test(this.peek())) {
      if (this.peek() === 'r' || this.peek() === 'R') raw = true;
      this.pos++;
    }
    const quote = this.peek();
    const triple = this.src.startsWith(quote.repeat(3), this.pos);
    const delim = triple ? quote.repeat(3) : quote;
    this.pos += delim.length;
    let out = '';
    for (;;) {
      if (this.atEnd()) throw new PythonLiteralError('Unterminated string', start);
      if (this.src.startsWith(delim, this.pos)) {
        this.pos += delim.length;
        return out;
      }
      const ch = this.src[this.pos];
      if (ch === '\n' && !triple) throw new PythonLiteralError('Newline in string', this.pos);
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      const esc = this.src[this.pos + 1];
      if (esc === undefined) throw new PythonLiteralError('Unterminated string', start);
      if (raw) {
        // In raw strings a backslash only protects the next character from ending the string.
        out += ch + esc;
        this.pos += 2;
        continue;
      }
      if (esc in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[esc];
        this.pos += 2;
        continue;
      }
      const hexLen = esc === 'x' ? 2 : esc === 'u' ? 4 : esc === 'U' ? 8 : 0;
      if (hexLen) {
        const hex = this.src.slice(this.pos + 2, this.pos + 2 + hexLen);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(hex)) throw new PythonLiteralError('Invalid escape', this.pos);
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) throw new PythonLiteralError('Invalid escape', this.pos);
        out += String.fromCodePoint(code);
        this.pos += 2 + hexLen;
        continue;
      }
      const octal = /^[0-7]{1,3}/.exec(this.src.slice(this.pos + 1, this.pos + 4));
      if (octal) {
        out += String.fromCodePoint(Number.parseInt(octal[0], 8));
        this.pos += 1 + octal[0].length;
        continue;
      }
      // Python keeps unknown escapes such as `\d` verbatim.
      out += ch + esc;
      this.pos += 2;
    }
  }
}
