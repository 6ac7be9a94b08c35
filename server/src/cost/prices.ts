/**
 * On-demand and provisioned prices per region (USD). Prices change by region and over time, so users override any
 * field through `dynalint.cost.prices[region]`. Defaults: the us-east-1 list prices since the November 2024 on-demand
 * cut ($0.625 per million write request units, $0.125 per million read request units; provisioned $0.00065 per
 * WCU-hour, $0.00013 per RCU-hour). The other US regions listed share those prices.
 */
import type { DynalintSettings, PriceTable } from '../protocol/settings';

export const US_STANDARD: PriceTable = {
  writeRequestPerMillion: 0.625,
  readRequestPerMillion: 0.125,
  wcuHour: 0.00065,
  rcuHour: 0.00013,
};

export const DEFAULT_PRICES: Readonly<Record<string, PriceTable>> = {
  'us-east-1': US_STANDARD,
  'us-east-2': US_STANDARD,
  'us-west-2': US_STANDARD,
};

export const FALLBACK_REGION = 'us-east-1';

export interface ResolvedPrices {
  region: string;
  table: PriceTable;
  /** Where the figures come from: the built-in table for the region, user settings, or the us-east-1 fallback. */
  source: 'built-in' | 'settings' | 'fallback';
}

function isPrice(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

/** The price table for the configured region: built-in figures overridden field by field by the settings. */
export function resolvePrices(settings: DynalintSettings): ResolvedPrices {
  const region = settings.cost.region;
  const builtIn = DEFAULT_PRICES[region];
  const override = settings.cost.prices[region] ?? {};
  const base = builtIn ?? DEFAULT_PRICES[FALLBACK_REGION];
  const table = { ...base };
  let overridden = 0;
  for (const k of Object.keys(table) as (keyof PriceTable)[]) {
    const v = override[k];
    if (isPrice(v)) {
      table[k] = v;
      overridden++;
    }
  }
  const complete = overridden === Object.keys(table).length;
  const source = builtIn ? (overridden ? 'settings' : 'built-in') : complete ? 'settings' : 'fallback';
  return { region, table, source };
}
