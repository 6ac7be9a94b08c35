/**
 * Settings and custom protocol shared by the client and the server: one copy, imported by both.
 * The `dynalint.*` VS Code settings (package.json `contributes.configuration`) mirror `DynalintSettings`.
 */
import type { SeveritySetting } from '../rules/types';

export interface ConnectionSetting {
  name: string;
  region?: string;
  profile?: string;
  /** e.g. http://127.0.0.1:8000 for DynamoDB Local. */
  endpoint?: string;
}

export interface PriceTable {
  /** USD per million write request units (on-demand). */
  writeRequestPerMillion: number;
  /** USD per million read request units (on-demand). */
  readRequestPerMillion: number;
  /** USD per WCU-hour (provisioned). */
  wcuHour: number;
  /** USD per RCU-hour (provisioned). */
  rcuHour: number;
}

export interface DynalintSettings {
  enable: boolean;
  /** Rule id -> severity or 'off'. Overrides `.dynalintrc.json`, which overrides rule defaults. */
  rules: Record<string, SeveritySetting>;
  /** Language ids to lint. */
  languages: string[];
  /** Files larger than this many bytes are skipped (with a log line). */
  maxFileSize: number;
  trace: 'off' | 'messages' | 'verbose';
  cost: {
    region: string;
    /** Assumed item size in bytes when the request does not show the item. */
    assumedItemSizeBytes: number;
    /** Per-region price overrides. */
    prices: Record<string, Partial<PriceTable>>;
  };
  connections: ConnectionSetting[];
}

export const DEFAULT_SETTINGS: DynalintSettings = {
  enable: true,
  rules: {},
  languages: ['json', 'jsonc', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'python', 'go', 'java', 'yaml', 'velocity', 'vtl', 'asl', 'asl-yaml'],
  maxFileSize: 2 * 1024 * 1024,
  trace: 'off',
  cost: { region: 'us-east-1', assumedItemSizeBytes: 1024, prices: {} },
  connections: [],
};

/** Merge a partial settings object (from the client or a config file) over the defaults. */
export function resolveSettings(partial: unknown): DynalintSettings {
  const p = (partial && typeof partial === 'object' ? partial : {}) as Partial<DynalintSettings>;
  return {
    enable: typeof p.enable === 'boolean' ? p.enable : DEFAULT_SETTINGS.enable,
    rules: p.rules && typeof p.rules === 'object' ? { ...p.rules } : {},
    languages: Array.isArray(p.languages) ? p.languages.filter((l) => typeof l === 'string') : DEFAULT_SETTINGS.languages,
    maxFileSize: typeof p.maxFileSize === 'number' && p.maxFileSize > 0 ? p.maxFileSize : DEFAULT_SETTINGS.maxFileSize,
    trace: p.trace === 'messages' || p.trace === 'verbose' ? p.trace : 'off',
    cost: {
      region: typeof p.cost?.region === 'string' ? p.cost.region : DEFAULT_SETTINGS.cost.region,
      assumedItemSizeBytes:
        typeof p.cost?.assumedItemSizeBytes === 'number' && p.cost.assumedItemSizeBytes > 0
          ? p.cost.assumedItemSizeBytes
          : DEFAULT_SETTINGS.cost.assumedItemSizeBytes,
      prices: p.cost?.prices && typeof p.cost.prices === 'object' ? p.cost.prices : {},
    },
    connections: Array.isArray(p.connections) ? p.connections.filter((c) => c && typeof c.name === 'string') : [],
  };
}
