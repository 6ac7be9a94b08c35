/**
 * The host languages of the tree-sitter adapters added in issue 15 (Go, Java), next to model.ts's `HostLanguage`.
 *
 * model.ts belongs to the data-flow work in progress; until its `HostLanguage` union names 'go' and 'java', sites of
 * these hosts carry the names through `GO_HOST` / `JAVA_HOST` and code that writes host syntax reads them with
 * `siteHost` (rules/edit.ts). Folding `'go' | 'java'` into `HostLanguage` makes both identities.
 */
import type { HostLanguage } from './model';

export type SourceLanguage = HostLanguage | 'go' | 'java' | 'yaml';

export const GO_HOST = 'go' as SourceLanguage as HostLanguage;
export const JAVA_HOST = 'java' as SourceLanguage as HostLanguage;
/** YAML (yaml.ts): Step Functions definitions, CLI skeletons; values written like JSON, fixes written as YAML. */
export const YAML_HOST = 'yaml' as SourceLanguage as HostLanguage;

/** The host a site was written in, Go and Java included. */
export function siteHost(site: { host: HostLanguage }): SourceLanguage {
  return site.host;
}
