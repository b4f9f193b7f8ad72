// Duration sketches: what a kept day (dailyFigures.ts) holds of its first responses or resolutions so that a year's
// median and p90 are merged from 366 small rows instead of sorted from a million durations. Up to EXACT_LIMIT
// durations a day are kept as they are; above it, as a log-scale histogram whose bins are 2% wide, each duration
// read back as its bin's middle (within 1% of it; 0 stays 0). Percentiles are PostgreSQL's percentile_cont (linear
// interpolation between the two nearest values), exact when every merged day kept its durations. Written here, not
// taken from a sketch library, because the bin rule is shared with the SQL that builds the sketches (BIN_SQL).
import { Prisma } from '../../prisma/generated/prisma/client.js';

/** A day keeps its durations as they are up to this many. */
export const EXACT_LIMIT = 200;
/** Bin i holds the durations in (GAMMA^(i-1), GAMMA^i]: a bin's middle is within 1% of every duration in it. */
const RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
/** The bin of 0 (business seconds of a reply before opening time); below every other bin. */
const ZERO_BIN = -1_000_000;

export type Sketch = { n: number; values: number[] } | { n: number; bins: number[]; counts: number[] };

/** SQL: the bin of the duration `seconds` (float8), as binOf computes it. */
export function binSql(seconds: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${seconds} <= 0 THEN ${ZERO_BIN} ELSE ceil(ln(${seconds}) / ${Math.log(GAMMA)}::float8)::int END`;
}

function binOf(seconds: number): number {
  return seconds <= 0 ? ZERO_BIN : Math.ceil(Math.log(seconds) / Math.log(GAMMA));
}

function middleOf(bin: number): number {
  return bin === ZERO_BIN ? 0 : (2 * GAMMA ** bin) / (GAMMA + 1);
}

export const EMPTY_SKETCH: Sketch = { n: 0, values: [] };

/** One sketch of every duration in `sketches`: exact while all of them are, a histogram otherwise. */
export function mergeSketches(sketches: Sketch[]): Sketch {
  const n = sketches.reduce((sum, sketch) => sum + sketch.n, 0);
  if (sketches.every((sketch) => 'values' in sketch)) {
    return { n, values: sketches.flatMap((sketch) => ('values' in sketch ? sketch.values : [])).sort((a, b) => a - b) };
  }
  const histogram = new Map<number, number>();
  const add = (bin: number, count: number) => histogram.set(bin, (histogram.get(bin) ?? 0) + count);
  for (const sketch of sketches) {
    if ('values' in sketch) for (const value of sketch.values) add(binOf(value), 1);
    else sketch.bins.forEach((bin, index) => add(bin, sketch.counts[index]!));
  }
  const bins = [...histogram.keys()].sort((a, b) => a - b);
  return { n, bins, counts: bins.map((bin) => histogram.get(bin)!) };
}

/** The k-th smallest duration (0-based) of a sketch. */
function nth(sketch: Sketch, k: number): number {
  if ('values' in sketch) return sketch.values[k]!;
  let seen = 0;
  for (let index = 0; index < sketch.bins.length; index++) {
    seen += sketch.counts[index]!;
    if (k < seen) return middleOf(sketch.bins[index]!);
  }
  throw new Error(`A sketch of ${sketch.n} durations has no duration ${k}`);
}

/** percentile_cont(fraction), in seconds to 3 decimals; null without durations. */
export function percentile(sketch: Sketch, fraction: number): number | null {
  if (sketch.n === 0) return null;
  const position = fraction * (sketch.n - 1);
  const below = Math.floor(position);
  const lower = nth(sketch, below);
  const value = position === below ? lower : lower + (nth(sketch, below + 1) - lower) * (position - below);
  return Math.round(value * 1000) / 1000;
}
