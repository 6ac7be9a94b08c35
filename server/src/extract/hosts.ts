/**
 * Host names of the tree-sitter adapters (Go, Java) and the YAML reader, as constants of model.ts's `HostLanguage`.
 * `SourceLanguage` is kept as an alias of `HostLanguage` for the edit code that imports it.
 */
import type { HostLanguage } from './model';

export type SourceLanguage = HostLanguage;

export const GO_HOST: HostLanguage = 'go';
export const JAVA_HOST: HostLanguage = 'java';
/** YAML (yaml.ts): Step Functions definitions, CLI skeletons; values written like JSON, fixes written as YAML. */
export const YAML_HOST: HostLanguage = 'yaml';

/** The host a site was written in. */
export function siteHost(site: { host: HostLanguage }): SourceLanguage {
  return site.host;
}
