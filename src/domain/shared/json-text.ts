/** A literal piece of output, told apart from the values being written (which are never instances). */
class Raw {
  constructor(readonly text: string) {}
}
const COMMA = new Raw(',');
const CLOSE_ARRAY = new Raw(']');
const CLOSE_OBJECT = new Raw('}');

/** The same text as JSON.stringify, built with an explicit stack: any depth, no call-stack overflow. */
function iterativeJson(root: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const item = stack.pop();
    if (item instanceof Raw) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      out.push('[');
      stack.push(CLOSE_ARRAY);
      for (let i = item.length - 1; i >= 0; i--) {
        const value: unknown = item[i];
        stack.push(value === undefined || typeof value === 'function' ? null : value);
        if (i > 0) stack.push(COMMA);
      }
    } else if (item !== null && typeof item === 'object') {
      out.push('{');
      stack.push(CLOSE_OBJECT);
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record).filter((k) => record[k] !== undefined && typeof record[k] !== 'function');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(record[keys[i]!]);
        stack.push(new Raw(`${JSON.stringify(keys[i])}:`));
        if (i > 0) stack.push(COMMA);
      }
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

/**
 * JSON.stringify for parsed JSON data (plain objects, arrays, strings, numbers, booleans, null) that
 * never throws on depth: the native one, and the same text built iteratively when it overflows.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return iterativeJson(value);
  }
}
