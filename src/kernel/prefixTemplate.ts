/**
 * Delta 1.12's `projects.prefix.base` / `.vocab`: the default `base` and `vocab` of a new project, a
 * template naming the project by `{{org}}` and `{{project}}` (Handlebars' notation, as Delta's).
 */
export const renderPrefix = (template: string, org: string, project: string): string =>
  template.replace(/\{\{\s*(org|project)\s*\}\}/g, (_whole, name: string) => (name === 'org' ? org : project));
