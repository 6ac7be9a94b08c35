// Public surface of the cost model: pure (no vscode, no LSP).
export { itemSize, valueSize, numberSize } from './size';
export { base64DecodedLength } from '../core/dynamodb';
export type { SizeResult } from './size';
export { DEFAULT_PRICES, FALLBACK_REGION, resolvePrices } from './prices';
export type { ResolvedPrices } from './prices';
export {
  estimate,
  readUnits,
  writeUnits,
  formatBytes,
  ASSUMED_ITEMS_READ,
  HOURS_PER_MONTH,
  READ_UNIT_BYTES,
  WRITE_UNIT_BYTES,
} from './estimate';
export type { BillingInfo, Consistency, CostEstimate, ItemSizeInfo, OperationEstimate } from './estimate';
export { billingOf, indexWrites, tableFacts } from './indexes';
export type { BillingMode, IndexWrite } from './indexes';
export { costHover, renderCostHover, formatUsd, formatUnits } from './hover';
