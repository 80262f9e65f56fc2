import type { FeatureSpec, RawFeatures } from './ai.types.js';
import type { Design, SparseDesign } from './logistic.js';

/**
 * Training rows kept sparse (a row names a dozen of the team's few dozen features): growable typed
 * buffers instead of one object per row, so 500,000 rows take tens of megabytes, not gigabytes.
 */
export class SparseRows {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private starts = new Int32Array(1024);
  private cols = new Int32Array(16_384);
  private vals = new Float64Array(16_384);
  private size = 0;
  private used = 0;

  get length(): number {
    return this.size;
  }

  push(features: RawFeatures): number {
    if (this.size + 2 > this.starts.length) this.starts = grow(this.starts, this.starts.length * 2);
    for (const name in features) {
      const value = features[name]!;
      if (value === 0) continue;
      let col = this.index.get(name);
      if (col === undefined) {
        col = this.names.length;
        this.names.push(name);
        this.index.set(name, col);
      }
      if (this.used + 1 > this.cols.length) {
        this.cols = grow(this.cols, this.cols.length * 2);
        this.vals = grow(this.vals, this.vals.length * 2);
      }
      this.cols[this.used] = col;
      this.vals[this.used] = value;
      this.used++;
    }
    this.size++;
    this.starts[this.size] = this.used;
    return this.size - 1;
  }

  /** Calls `each(column, value)` for the row's non-zero features. */
  forEach(row: number, each: (col: number, value: number) => void): void {
    for (let k = this.starts[row]!; k < this.starts[row + 1]!; k++) each(this.cols[k]!, this.vals[k]!);
  }

  /**
   * The encoding of `rows`: the features present in at least `minCount` of them (a source seen twice
   * says nothing), each standardized by its mean and standard deviation over those rows.
   */
  specOf(rows: ArrayLike<number>, minCount = 5): FeatureSpec {
    const m = this.names.length;
    const count = new Float64Array(m);
    const sum = new Float64Array(m);
    const sumSq = new Float64Array(m);
    for (let i = 0; i < rows.length; i++) {
      this.forEach(rows[i]!, (c, v) => {
        count[c]!++;
        sum[c] = sum[c]! + v;
        sumSq[c] = sumSq[c]! + v * v;
      });
    }
    const n = rows.length;
    const spec: FeatureSpec = { names: [], means: [], stds: [] };
    for (let c = 0; c < m; c++) {
      if (count[c]! < minCount || (isOneHot(this.names[c]!) && n - count[c]! < minCount)) continue;
      const mean = sum[c]! / n;
      const variance = sumSq[c]! / n - mean * mean;
      if (!(variance > 1e-12)) continue;
      spec.names.push(this.names[c]!);
      spec.means.push(mean);
      spec.stds.push(Math.sqrt(variance));
    }
    return spec;
  }

  /** The rows as a sparse design for `spec` (raw values; the fit standardizes): what the training fits on. */
  sparseDesign(rows: ArrayLike<number>, spec: FeatureSpec): SparseDesign {
    const position = this.positions(spec);
    const starts = new Int32Array(rows.length + 1);
    let total = 0;
    for (let i = 0; i < rows.length; i++) total += this.starts[rows[i]! + 1]! - this.starts[rows[i]!]!;
    const cols = new Int32Array(total);
    const vals = new Float64Array(total);
    let used = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      for (let k = this.starts[r]!; k < this.starts[r + 1]!; k++) {
        const j = position[this.cols[k]!]!;
        if (j < 0) continue;
        cols[used] = j;
        vals[used] = this.vals[k]!;
        used++;
      }
      starts[i + 1] = used;
    }
    return { starts, cols, vals, n: rows.length, p: spec.names.length, means: spec.means, stds: spec.stds };
  }

  private positions(spec: FeatureSpec): Int32Array {
    const position = new Int32Array(this.names.length).fill(-1);
    spec.names.forEach((name, j) => {
      const col = this.index.get(name);
      if (col !== undefined) position[col] = j;
    });
    return position;
  }

  /** The rows as a dense standardized design for `spec`. */
  design(rows: ArrayLike<number>, spec: FeatureSpec): Design {
    const p = spec.names.length;
    const position = this.positions(spec);
    const zero = spec.means.map((mean, j) => -mean / spec.stds[j]!);
    const x = new Float64Array(rows.length * p);
    for (let i = 0; i < rows.length; i++) {
      const base = i * p;
      for (let j = 0; j < p; j++) x[base + j] = zero[j]!;
      this.forEach(rows[i]!, (c, v) => {
        const j = position[c]!;
        if (j >= 0) x[base + j] = (v - spec.means[j]!) / spec.stds[j]!;
      });
    }
    return { x, n: rows.length, p };
  }
}

/** One-hot features (`phase=…`, `source=…`) need enough rows on each side; numeric ones only enough non-zeros. */
const isOneHot = (name: string): boolean => name.includes('=');

function grow<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** One raw row standardized for `spec` (serving). */
export function encode(features: RawFeatures, spec: FeatureSpec): Float64Array {
  return Float64Array.from(spec.names, (name, j) => ((features[name] ?? 0) - spec.means[j]!) / spec.stds[j]!);
}
