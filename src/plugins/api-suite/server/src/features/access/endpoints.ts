/**
 * Plan endpoint allowlists. An entry is "<METHOD> <path>": `*` as the method matches any
 * method, a path ending in `*` matches that prefix and anything after it, and a lone `*`
 * matches every path. A stored plan may name the configured groups as `@public` and
 * `@private`, so a site changes what a tier reaches in one place, and `@content`: every
 * content-API route of the site's watched content types (`/api/recipes`, `/api/recipes/…`).
 */
export interface EndpointGroups {
  public: string[];
  private: string[];
  content: string[];
}

export type EndpointMatcher = (method: string, path: string) => boolean;

export function resolveEndpoints(entries: unknown, groups: EndpointGroups): string[] {
  const list = Array.isArray(entries) ? entries.filter((entry): entry is string => typeof entry === 'string') : [];
  const resolved = list.flatMap((entry) => {
    if (entry === '@public') return groups.public;
    if (entry === '@private') return groups.private;
    if (entry === '@content') return groups.content;
    return [entry];
  });
  return [...new Set(resolved)];
}

/**
 * A matcher of API paths (http/site-paths.ts: the site's REST prefix written as `/api`, lower
 * case). `toApiPath` reads a pattern's path the same way, so a pattern may name the site's prefix
 * or `/api`, in any case.
 */
export function compileEndpoints(patterns: string[], toApiPath: (path: string) => string = (path) => path.toLowerCase()): EndpointMatcher {
  const rules = patterns.map((pattern) => parsePattern(pattern, toApiPath)).filter((rule): rule is Rule => rule !== undefined);
  return (method, path) => {
    const upper = method.toUpperCase();
    return rules.some(
      (rule) => (rule.method === '*' || rule.method === upper || (rule.method === 'GET' && upper === 'HEAD')) && rule.matches(path)
    );
  };
}

interface Rule {
  method: string;
  matches: (path: string) => boolean;
}

function parsePattern(pattern: string, toApiPath: (path: string) => string): Rule | undefined {
  const match = /^(\S+)\s+(\S+)$/.exec(pattern.trim());
  if (!match) return undefined;
  const [, method, written] = match;
  if (written === '*') return { method: method.toUpperCase(), matches: () => true };
  const path = toApiPath(written);
  if (path.endsWith('*')) {
    const prefix = path.slice(0, -1);
    return { method: method.toUpperCase(), matches: (candidate) => candidate.startsWith(prefix) };
  }
  const exact = path.replace(/\/+$/, '');
  return { method: method.toUpperCase(), matches: (candidate) => candidate.replace(/\/+$/, '') === exact };
}
