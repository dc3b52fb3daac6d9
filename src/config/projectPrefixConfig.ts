import { isIri } from '../domain/projects/apiMappings.js';
import { renderPrefix } from '../kernel/prefixTemplate.js';
import { ConfigError } from '../kernel/ConfigError.js';

/** Templates of new projects' default `base` and `vocab` (absent: `{BASE_URL}/v1/resources/{org}/{project}/_/`, `{BASE_URL}/v1/vocabs/{org}/{project}/`). */
export interface ProjectPrefixConfig {
  base?: string;
  vocab?: string;
}

/**
 * `PROJECT_BASE` / `projects.prefix.base` and `PROJECT_VOCAB` / `projects.prefix.vocab`. Checked as
 * Delta checks them at start-up: rendered for a sample project, each must be an absolute IRI ending
 * with `/` or `#` (a prefix), and name nothing but `{{org}}` and `{{project}}`.
 */
export const projectPrefixConfig = (setting: (envName: string, fileKey: string) => string | undefined): ProjectPrefixConfig => {
  const one = (envName: string, fileKey: string): string | undefined => {
    const template = setting(envName, fileKey);
    if (template === undefined || template === '') return undefined;
    const rendered = renderPrefix(template, 'org', 'proj');
    const unknown = /\{\{[^}]*\}\}/.exec(rendered);
    if (unknown) throw new ConfigError(envName, `only {{org}} and {{project}} may be named, got '${unknown[0]}' in '${template}'`);
    if (!isIri(rendered) || !/[/#]$/.test(rendered))
      throw new ConfigError(envName, `expected an absolute IRI ending with '/' or '#' (with {{org}} and {{project}}), got '${template}'`);
    return template;
  };
  const base = one('PROJECT_BASE', 'projects.prefix.base');
  const vocab = one('PROJECT_VOCAB', 'projects.prefix.vocab');
  return { ...(base ? { base } : {}), ...(vocab ? { vocab } : {}) };
};
