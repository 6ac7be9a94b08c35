/**
 * fast-check run parameters for every property in the suites: a pinned seed, so a run is the same on every machine
 * and every retry. DYNALINT_FC_SEED overrides the seed (to explore: pick a different one); DYNALINT_FC_PATH, with the
 * seed of a failure, replays its counterexample directly. A failure reports fast-check's message (counterexample,
 * seed, path, the error) plus the environment that replays it.
 */
import fc, { type Parameters } from 'fast-check';

/** The seed used when neither DYNALINT_FC_SEED nor the property's own `seed` is set. */
export const DEFAULT_FC_SEED = 20240611;

function seedFromEnv(fallback: number): number {
  const raw = process.env.DYNALINT_FC_SEED;
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`DYNALINT_FC_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Parameters for `fc.assert`: as given, with the seed pinned (DYNALINT_FC_SEED, else `params.seed`, else the default). */
export function fcParameters<T>(params: Parameters<T> = {}): Parameters<T> {
  const seed = seedFromEnv(params.seed ?? DEFAULT_FC_SEED);
  const path = process.env.DYNALINT_FC_PATH || undefined;
  return {
    ...params,
    seed,
    ...(path ? { path, endOnFailure: true } : {}),
    reporter: (details) => {
      if (!details.failed) return;
      const report = fc.defaultReportMessage(details) ?? 'Property failed';
      throw new Error(`${report}\nReplay: DYNALINT_FC_SEED=${details.seed} DYNALINT_FC_PATH=${details.counterexamplePath ?? ''}`);
    },
  };
}
